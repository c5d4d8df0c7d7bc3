-- Deploy voyager:function_spots_alone to pg
BEGIN;
-- Spots that stayed unmatched 24 hours after they were posted and inspected
-- (whichever is later) become releases of their own: source 4 (spot), named
-- by the spot's title, its category category_of's (the spot's where the name
-- says nothing), posted when the spot was, its NZB's files as the chunk the
-- inspector encoded (the window's codec: t=get goes through the one NZB
-- writer), in the first of the NZB's groups the catalog indexes (one it does
-- not: no release, noted). Linked (via 'alone') and applied: its password.
-- Returns how many became releases.
CREATE FUNCTION voyager.spots_alone(p_now timestamptz DEFAULT now(), p_limit integer DEFAULT 1000)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_made integer;
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS spots_lone (spot_id text, title text, posted timestamptz, newznab integer,
                                                poster text, groups text[], group_id integer, n voyager.spot_nzbs)
        ON COMMIT DROP;
    TRUNCATE spots_lone;
    INSERT INTO spots_lone
    SELECT n.spot_id, left(s.title, 255), coalesce(s.posted_at, s.read_at), s.newznab, coalesce(n.poster, s.facts ->> 'poster', 'spot'),
           ARRAY(SELECT DISTINCT x COLLATE "C" FROM unnest(n.groups) x ORDER BY 1),
           (SELECT g.id FROM unnest(n.groups) WITH ORDINALITY u(name, i) JOIN voyager.groups g ON g.name = u.name
             ORDER BY u.i LIMIT 1), n
      FROM voyager.spot_nzbs n
      JOIN voyager.spots s ON s.message_id = n.spot_id AND s.disposed_at IS NULL
     WHERE n.state = 'read' AND n.chunk IS NOT NULL AND n.files > 0 AND coalesce(btrim(s.title), '') <> ''
       AND greatest(coalesce(s.posted_at, s.read_at), n.inspected_at) <= p_now - interval '24 hours'
       AND NOT EXISTS (SELECT FROM voyager.spot_matches m WHERE m.spot_id = n.spot_id)
     ORDER BY n.inspected_at
     LIMIT p_limit
       FOR UPDATE OF n SKIP LOCKED;

    UPDATE voyager.spot_nzbs n SET error = 'no indexed group', next_try_at = p_now + interval '1 hour'
      FROM spots_lone l WHERE n.spot_id = l.spot_id AND l.group_id IS NULL;
    DELETE FROM spots_lone WHERE group_id IS NULL OR cardinality(groups) = 0;

    INSERT INTO voyager.posters (poster) SELECT DISTINCT poster FROM spots_lone ORDER BY 1 ON CONFLICT (poster) DO NOTHING;
    INSERT INTO voyager.group_sets (groups) SELECT DISTINCT groups FROM spots_lone ORDER BY 1 ON CONFLICT (groups) DO NOTHING;

    WITH made AS (
        INSERT INTO voyager.releases (posted_at, last_posted_at, first_article, last_article, segments, bytes,
                                      settled_at, group_id, group_set_id, poster_id, file_total, files, source,
                                      complete, has_par2, edge, release_key, identity_key, name, category, readable)
        SELECT l.posted, l.posted, 0, 0, (l.n).segments, (l.n).bytes, p_now, l.group_id, gs.id, po.id,
               (l.n).files, (l.n).files, 4, true, (l.n).has_par2, false,
               substring(sha256(convert_to('spot' || chr(1) || l.spot_id, 'UTF8')) FROM 1 FOR 20),
               coalesce((l.n).identity_keys[1], substring(sha256(convert_to('spot' || chr(2) || l.spot_id, 'UTF8')) FROM 1 FOR 20)),
               l.title, voyager.category_of(l.title, l.groups, NULL, l.newznab), true
          FROM spots_lone l
          JOIN voyager.posters po ON po.poster = l.poster
          JOIN voyager.group_sets gs ON gs.groups = l.groups
         ORDER BY l.spot_id
        RETURNING id, release_key, posted_at, name
    ), linked AS (
        SELECT m.id, m.posted_at, m.name, l.spot_id, (l.n).chunk AS chunk
          FROM made m JOIN spots_lone l
            ON m.release_key = substring(sha256(convert_to('spot' || chr(1) || l.spot_id, 'UTF8')) FROM 1 FOR 20)
    ), chunks AS (
        INSERT INTO voyager.release_chunks (release_id, month, chunk)
        SELECT k.id, voyager.chunk_month(k.posted_at), k.chunk FROM linked k
    ), texts AS (
        INSERT INTO voyager.release_texts (release_id, posted_at, kind, text)
        SELECT k.id, k.posted_at, 1, k.name FROM linked k
    ), links AS (
        INSERT INTO voyager.spot_matches (spot_id, release_id, via, matched_at)
        SELECT k.spot_id, k.id, 'alone', p_now FROM linked k ORDER BY k.spot_id
        RETURNING spot_id
    )
    UPDATE voyager.spot_nzbs n SET next_try_at = NULL FROM links WHERE n.spot_id = links.spot_id;
    GET DIAGNOSTICS v_made = ROW_COUNT;
    PERFORM voyager.apply_spot_matches(p_now);
    RETURN v_made;
END $$;
COMMENT ON FUNCTION voyager.spots_alone(timestamptz, integer) IS
    'Spots unmatched 24 hours after posted and inspected as releases of their own (source spot), their NZB''s chunk, linked and applied';
COMMIT;
