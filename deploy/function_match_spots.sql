-- Deploy voyager:function_match_spots to pg
BEGIN;
-- The spot inspector's matching, set-based: the due spots of p_spots (all due
-- ones when null: read NZBs, unmatched, not disposed, next_try_at reached)
-- each linked to the release the header pass built for it: by the message-id
-- of one of its files' first or last segments (a probe target of a catalog or
-- pending release), else by the release identity of one of its files in one
-- of its NZB's groups, posted nearest the spot within 48 hours; a catalog
-- release before a pending one. A matched pending release not named yet is
-- named by the spot (named awaiting the move: the namer moves it into the
-- catalog, source 4 spot). The unmatched are looked at again in an hour.
-- Then the links are applied (apply_spot_matches).
CREATE FUNCTION voyager.match_spots(p_spots text[] DEFAULT NULL, p_now timestamptz DEFAULT now(),
                                    p_limit integer DEFAULT 1000)
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_due integer;
    v_matched integer;
    v_named integer;
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS spots_due (spot_id text PRIMARY KEY, posted timestamptz, title text,
                                               identity_keys bytea[], message_ids text[], groups text[])
        ON COMMIT DROP;
    TRUNCATE spots_due;
    INSERT INTO spots_due
    SELECT n.spot_id, coalesce(s.posted_at, s.read_at), s.title, n.identity_keys, n.message_ids, n.groups
      FROM voyager.spot_nzbs n
      JOIN voyager.spots s ON s.message_id = n.spot_id AND s.disposed_at IS NULL
     WHERE n.state = 'read' AND n.next_try_at <= p_now
       AND (p_spots IS NULL OR n.spot_id = ANY (p_spots))
       AND NOT EXISTS (SELECT FROM voyager.spot_matches m WHERE m.spot_id = n.spot_id)
     ORDER BY n.next_try_at
     LIMIT p_limit;
    GET DIAGNOSTICS v_due = ROW_COUNT;

    WITH by_message AS (                 -- a probe target of the release: its articles are the NZB's
        SELECT d.spot_id, 0 AS ord, coalesce(r.merged_into, r.id, p.release_id) AS release_id,
               CASE WHEN r.id IS NULL AND p.release_id IS NULL THEN p.release_key END AS pending_key,
               abs(extract(epoch FROM coalesce(r.posted_at, p.posted_at) - d.posted)) AS gap
          FROM spots_due d
         CROSS JOIN LATERAL unnest(d.message_ids) mid
          JOIN voyager.probe_candidates pc ON pc.message_id = mid
          LEFT JOIN voyager.releases r ON r.id = pc.release_id
          LEFT JOIN voyager.pending_releases p ON p.release_key = pc.pending_key
         WHERE r.id IS NOT NULL OR p.release_key IS NOT NULL
    ), groups_due AS (
        SELECT d.spot_id, g.id AS group_id FROM spots_due d JOIN voyager.groups g ON g.name = ANY (d.groups)
    ), by_identity AS (                  -- the same release identity in one of its groups, within 48 hours
        SELECT d.spot_id, 1 AS ord, coalesce(r.merged_into, r.id) AS release_id, NULL::bytea AS pending_key,
               abs(extract(epoch FROM r.posted_at - d.posted)) AS gap
          FROM spots_due d
         CROSS JOIN LATERAL unnest(d.identity_keys) k
          JOIN voyager.releases r ON r.identity_key = k
          JOIN groups_due gd ON gd.spot_id = d.spot_id AND gd.group_id = r.group_id
         WHERE r.posted_at BETWEEN d.posted - interval '48 hours' AND d.posted + interval '48 hours'
        UNION ALL
        SELECT d.spot_id, 2, p.release_id, CASE WHEN p.release_id IS NULL THEN p.release_key END,
               abs(extract(epoch FROM p.posted_at - d.posted))
          FROM spots_due d
         CROSS JOIN LATERAL unnest(d.identity_keys) k
          JOIN voyager.pending_releases p ON p.identity_key = k
          JOIN groups_due gd ON gd.spot_id = d.spot_id AND gd.group_id = p.group_id
         WHERE p.posted_at BETWEEN d.posted - interval '48 hours' AND d.posted + interval '48 hours'
    ), best AS (
        SELECT DISTINCT ON (c.spot_id) c.spot_id, c.release_id, c.pending_key, c.ord
          FROM (SELECT * FROM by_message UNION ALL SELECT * FROM by_identity) c
         ORDER BY c.spot_id, c.ord, c.gap NULLS LAST, c.release_id NULLS LAST, c.pending_key
    ), ins AS (
        INSERT INTO voyager.spot_matches (spot_id, release_id, pending_key, via, matched_at)
        SELECT b.spot_id, b.release_id, b.pending_key, CASE WHEN b.ord = 0 THEN 'message-id' ELSE 'identity' END, p_now
          FROM best b
         ORDER BY b.spot_id
        ON CONFLICT (spot_id) DO NOTHING
        RETURNING spot_id, pending_key
    ), named AS (                        -- a pending release the ladder has not named: the spot names it
        UPDATE voyager.pending_releases p
           SET status = 4, named = left(d.title, 255), name_source = 4, decided_at = p_now
          FROM ins i JOIN spots_due d ON d.spot_id = i.spot_id
         WHERE p.release_key = i.pending_key AND p.status IN (0, 2, 3) AND coalesce(btrim(d.title), '') <> ''
        RETURNING 1
    )
    SELECT (SELECT count(*) FROM ins), (SELECT count(*) FROM named) INTO v_matched, v_named;

    UPDATE voyager.spot_nzbs n
       SET next_try_at = CASE WHEN EXISTS (SELECT FROM voyager.spot_matches m WHERE m.spot_id = n.spot_id)
                              THEN NULL ELSE p_now + interval '1 hour' END,
           tries = n.tries + 1
      FROM spots_due d WHERE n.spot_id = d.spot_id;

    RETURN jsonb_build_object('due', v_due, 'matched', v_matched, 'named', v_named,
                              'applied', voyager.apply_spot_matches(p_now));
END $$;
COMMENT ON FUNCTION voyager.match_spots(text[], timestamptz, integer) IS
    'The spot inspector''s matching: due spots linked to their catalog or pending release by message-id, else by identity in a group within 48 hours; applied';
COMMIT;
