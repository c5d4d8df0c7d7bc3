-- Deploy voyager:function_claim_named_pending to pg
BEGIN;
-- The namer's claim: the named pending releases awaiting the move (and taken
-- ones whose namer's lease ran out) of up to p_limit uploads (one group,
-- poster and name: an upload posted one random-named file at a time is many
-- pending releases, read again in one pass), the longest named first, SKIP
-- LOCKED, each with a token of its own and the lease in expires_at.
-- With each: its group and article span to read again, and the rule set and
-- owner list the window reads it with (the latest set, the active groups).
CREATE FUNCTION voyager.claim_named_pending(p_node text, p_limit integer DEFAULT 10,
                                            p_lease interval DEFAULT interval '10 minutes')
RETURNS TABLE (claim uuid, release_key bytea, group_name text, first_article bigint, last_article bigint,
               name text, rules jsonb, owners jsonb)
LANGUAGE sql AS $$
    WITH uploads AS (                 -- the longest named first, up to p_limit uploads
        SELECT DISTINCT p.group_id, p.poster, p.named FROM (
            SELECT p.group_id, p.poster, p.named FROM voyager.pending_releases p
             WHERE p.status = 4 OR (p.status = 5 AND p.expires_at < now())
             ORDER BY p.decided_at
             LIMIT p_limit) p
    ), due AS (                       -- each with all of its named pieces: they are read again at once
        SELECT p.release_key FROM voyager.pending_releases p
          JOIN uploads u ON u.group_id = p.group_id AND u.poster = p.poster AND u.named = p.named
         WHERE p.status = 4 OR (p.status = 5 AND p.expires_at < now())
           FOR UPDATE OF p SKIP LOCKED
    ), moved AS (
        UPDATE voyager.pending_releases p
           SET status = 5, claim = gen_random_uuid(), taken_by = p_node, expires_at = now() + p_lease
          FROM due WHERE p.release_key = due.release_key
        RETURNING p.claim, p.release_key, p.group_id, p.first_article, p.last_article, p.named
    )
    SELECT m.claim, m.release_key, g.name, m.first_article, m.last_article, m.named,
           (SELECT rs.rules FROM voyager.rule_sets rs ORDER BY rs.version DESC LIMIT 1),
           (SELECT coalesce(jsonb_object_agg(a.name, a.priority), '{}') FROM voyager.groups a WHERE a.active)
      FROM moved m JOIN voyager.groups g ON g.id = m.group_id
$$;
COMMENT ON FUNCTION voyager.claim_named_pending(text, integer, interval)
    IS 'The namer''s claim: named pending releases awaiting the move, SKIP LOCKED, a token and a lease each, with the span to read again';
COMMIT;
