-- Deploy voyager:function_apply_spot_matches to pg
BEGIN;
-- What a spot's link gives the release it names: the matches whose pending
-- release the namer has moved into the catalog take its id, then every link
-- not yet applied (its spot standing) gives its release the spot's category
-- where the release's own name (and inner name) said nothing (category_of with
-- the spot's category), and the spot's
-- password through add_release_password (its trigger marks the release dirty:
-- the judge takes `locked` back), and its title as a searchable text
-- (spot_texts). What the release had before is kept on the
-- link, for a dispose to give back. Returns the links applied.
CREATE FUNCTION voyager.apply_spot_matches(p_now timestamptz DEFAULT now())
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_applied integer;
BEGIN
    UPDATE voyager.spot_matches m SET release_id = p.release_id
      FROM voyager.pending_releases p
     WHERE m.release_id IS NULL AND p.release_key = m.pending_key AND p.status = 1 AND p.release_id IS NOT NULL;

    CREATE TEMP TABLE IF NOT EXISTS spot_links (spot_id text, release_id bigint, password text, source text,
                                                newznab integer) ON COMMIT DROP;
    TRUNCATE spot_links;
    INSERT INTO spot_links
    SELECT m.spot_id, coalesce(r.merged_into, r.id), nullif(btrim(s.facts #>> '{password,value}'), ''),
           s.facts #>> '{password,source}', s.newznab
      FROM voyager.spot_matches m
      JOIN voyager.spots s ON s.message_id = m.spot_id AND s.disposed_at IS NULL
      JOIN voyager.releases r ON r.id = m.release_id
     WHERE m.applied_at IS NULL
     ORDER BY m.spot_id
       FOR UPDATE OF m;
    GET DIAGNOSTICS v_applied = ROW_COUNT;
    IF v_applied = 0 THEN
        RETURN 0;
    END IF;

    -- what the release had, then the password
    UPDATE voyager.spot_matches m SET prior_status = pw.status, prior_source = pw.source
      FROM spot_links l LEFT JOIN voyager.release_passwords pw ON pw.release_id = l.release_id
     WHERE m.spot_id = l.spot_id;
    UPDATE voyager.spot_matches m
       SET password_set = voyager.add_release_password(l.release_id, l.password,
                              CASE WHEN l.source IN ('spot-title', 'spot-text') THEN l.source ELSE 'spot-text' END)
      FROM spot_links l
     WHERE m.spot_id = l.spot_id AND l.password IS NOT NULL;

    -- the category: category_of's with the spot's (the spot's where the name and
    -- inner name say nothing; release_categories's reading of the inner name)
    WITH c AS (
        SELECT l.spot_id, r.id, r.category AS prior,
               voyager.category_of(r.name, gs.groups, i.inner_name, l.newznab) AS spot_category
          FROM spot_links l
          JOIN voyager.releases r ON r.id = l.release_id
          JOIN voyager.group_sets gs ON gs.id = r.group_set_id
          LEFT JOIN LATERAL (
              SELECT x AS inner_name FROM voyager.release_texts t, string_to_table(t.text, E'\n') x
               WHERE t.release_id = r.id AND t.kind IN (2, 3, 5)
               ORDER BY CASE t.kind WHEN 5 THEN 0 WHEN 3 THEN 1 ELSE 2 END, length(x) DESC, x
               LIMIT 1) i ON true
         WHERE l.newznab IS NOT NULL
    ), set_it AS (
        UPDATE voyager.releases r SET category = c.spot_category
          FROM c
         WHERE r.id = c.id AND r.category IS DISTINCT FROM c.spot_category
        RETURNING r.id
    )
    UPDATE voyager.spot_matches m SET category_set = true, prior_category = c.prior
      FROM c
     WHERE m.spot_id = c.spot_id AND c.id IN (SELECT id FROM set_it);

    -- the spot's title, searchable on its release
    PERFORM voyager.spot_texts(ARRAY(SELECT DISTINCT l.release_id FROM spot_links l ORDER BY 1));

    UPDATE voyager.spot_matches m SET applied_at = p_now FROM spot_links l WHERE m.spot_id = l.spot_id;
    RETURN v_applied;
END $$;
COMMENT ON FUNCTION voyager.apply_spot_matches(timestamptz) IS
    'Spot links to their catalog releases (a moved pending one''s id taken) applied: the spot''s category where the name said nothing, its password';
COMMIT;
