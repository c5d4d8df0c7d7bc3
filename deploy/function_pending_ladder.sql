-- Deploy voyager:function_pending_ladder to pg
BEGIN;
-- The pending_ladder job: up to p_limit (pending_ladder_batch) waiting
-- pending releases whose probe targets all have their answer (read, dead,
-- failed, or stuck), oldest first, SKIP LOCKED. pending_name decides from
-- their read facts, else a par2 set describing a probed file start: named,
-- they await the namer (status 4). Without a name a release gets a try while
-- it has tries left (pending_tries): it is looked at again after
-- pending_retry_minutes (a set naming it may be probed by then), and its
-- targets that were not read are probed again (their dead or failed cache
-- rows go: an article late to propagate may be there by then); else it ends
-- discarded (no facts at all) or exhausted (facts, no name). A muted signature's releases are
-- not probed any more and end the same way at their next look. Each release
-- decided counts into its signature (pending_signatures), named or not.
-- Locks: pending_releases, then probe_candidates, probe_cache, signatures.
CREATE FUNCTION voyager.pending_ladder(p_limit integer DEFAULT NULL)
RETURNS TABLE (looked integer, named integer, tried integer, discarded integer, exhausted integer)
LANGUAGE plpgsql SET jit = off AS $$
DECLARE
    v_tries integer := voyager.setting_int('pending_tries');
    v_retry interval := make_interval(mins => voyager.setting_int('pending_retry_minutes')::integer);
BEGIN
    CREATE TEMP TABLE IF NOT EXISTS pending_ladder_step (
        release_key bytea PRIMARY KEY, tool text, group_id integer, poster text, muted boolean,
        facts jsonb, unread integer, name text, source smallint, outcome smallint
    ) ON COMMIT DROP;
    TRUNCATE pending_ladder_step;
    INSERT INTO pending_ladder_step (release_key, tool, group_id, poster, muted)
    SELECT p.release_key, p.tool, p.group_id, p.poster, coalesce(s.muted, false)
      FROM voyager.pending_releases p
      LEFT JOIN voyager.pending_signatures s ON s.tool = p.tool AND s.group_id = p.group_id AND s.poster = p.poster
     WHERE p.status = 0 AND p.finished
       AND (p.tries = 0 OR p.decided_at < now() - v_retry)      -- a try waits its pause
       AND (s.muted OR NOT EXISTS (SELECT FROM voyager.probe_candidates pc
                                    WHERE pc.pending_key = p.release_key AND pc.probed_at IS NULL
                                      AND pc.attempts < 5))
     ORDER BY p.created_at
     LIMIT coalesce(p_limit, voyager.setting_int('pending_ladder_batch'))
       FOR UPDATE OF p SKIP LOCKED;

    -- what the probes read (status 0) and how many targets gave nothing
    UPDATE pending_ladder_step x
       SET facts = f.facts, unread = f.unread, name = n.name, source = n.source
      FROM (SELECT x.release_key,
                   jsonb_agg(c.facts) FILTER (WHERE c.status = 0 AND jsonb_typeof(c.facts) = 'object') AS facts,
                   count(pc.kind) FILTER (WHERE c.status IS DISTINCT FROM 0) AS unread
              FROM pending_ladder_step x
              LEFT JOIN voyager.probe_candidates pc ON pc.pending_key = x.release_key
              LEFT JOIN voyager.probe_cache c ON c.message_id = pc.message_id
             GROUP BY x.release_key) f
      LEFT JOIN LATERAL voyager.pending_name(f.facts) n ON true
     WHERE x.release_key = f.release_key;

    -- a file start a par2 set describes names it by the set (one volume of an upload posted one
    -- random-named file at a time: the par2 merge joins it to its upload once it is in the catalog);
    -- a common start names nothing
    UPDATE pending_ladder_step x SET name = d.name, source = 7
      FROM (SELECT DISTINCT ON (h.pending_key) h.pending_key, voyager.file_stem(s.name) AS name
              FROM voyager.file_hashes h
              JOIN voyager.par2_files f ON f.md5_16k = h.md5_16k AND f.size = h.size
              JOIN voyager.par2_sets s ON s.set_id = f.set_id
             WHERE h.pending_key IN (SELECT y.release_key FROM pending_ladder_step y WHERE y.name IS NULL)
               AND s.name IS NOT NULL AND NOT voyager.random_stem(voyager.file_stem(s.name))
               AND NOT voyager.common_start(h.md5_16k, h.size)
             ORDER BY h.pending_key, s.found_at, s.set_id) d
     WHERE x.release_key = d.pending_key AND x.name IS NULL;

    -- the outcome: 4 named, 0 another try, 2 discarded, 3 exhausted
    UPDATE pending_ladder_step x
       SET outcome = CASE WHEN x.name IS NOT NULL THEN 4
                          -- another try while tries remain: a target read nothing, or a set that
                          -- names it may not be probed yet
                          WHEN NOT x.muted AND p.tries + 1 < v_tries THEN 0
                          WHEN x.facts IS NULL THEN 2 ELSE 3 END
      FROM voyager.pending_releases p WHERE p.release_key = x.release_key;

    UPDATE voyager.pending_releases p
       SET status = x.outcome, named = x.name, name_source = x.source,
           tries = p.tries + CASE WHEN x.outcome = 4 THEN 0 ELSE 1 END,
           decided_at = now()                              -- decided, or (status 0) last tried
      FROM pending_ladder_step x WHERE p.release_key = x.release_key;

    -- another try: the targets that read nothing are probed again after the pause
    WITH again AS (
        UPDATE voyager.probe_candidates pc
           SET probed_at = NULL, attempts = 0, claim = NULL, claimed_by = NULL, expires_at = now() + v_retry
          FROM pending_ladder_step x
         WHERE x.outcome = 0 AND pc.pending_key = x.release_key
           AND NOT EXISTS (SELECT FROM voyager.probe_cache c WHERE c.message_id = pc.message_id AND c.status = 0)
        RETURNING pc.message_id
    )
    DELETE FROM voyager.probe_cache c USING again WHERE c.message_id = again.message_id AND c.status > 0;

    INSERT INTO voyager.pending_signatures AS s (tool, group_id, poster, probes, named)
    SELECT x.tool, x.group_id, x.poster, count(*), count(*) FILTER (WHERE x.outcome = 4)
      FROM pending_ladder_step x
     WHERE x.outcome <> 0 AND NOT x.muted
     GROUP BY x.tool, x.group_id, x.poster
     ORDER BY x.tool, x.group_id, x.poster
        ON CONFLICT (tool, group_id, poster) DO UPDATE
       SET probes = s.probes + excluded.probes, named = s.named + excluded.named, updated_at = now();

    SELECT count(*), count(*) FILTER (WHERE x.outcome = 4), count(*) FILTER (WHERE x.outcome = 0),
           count(*) FILTER (WHERE x.outcome = 2), count(*) FILTER (WHERE x.outcome = 3)
      INTO looked, named, tried, discarded, exhausted
      FROM pending_ladder_step x;
    RETURN NEXT;
END $$;
COMMENT ON FUNCTION voyager.pending_ladder(integer) IS
    'The pending_ladder job: probed pending releases named (awaiting the namer), tried again, discarded or exhausted; returns looked, named, tried, discarded, exhausted';
COMMIT;
