-- Revert voyager:function_claim_probe_candidates from pg: the claim before the queue's order and tokens
BEGIN;
SET LOCAL check_function_bodies = off;   -- its body names claimed_until, which the column becomes again after this
DROP FUNCTION voyager.claim_probe_candidates(text, integer, interval, integer);
CREATE FUNCTION voyager.claim_probe_candidates(p_node text, p_limit integer DEFAULT 100,
                                               p_lease interval DEFAULT interval '10 minutes')
RETURNS TABLE (release_id bigint, kind text, message_id text, file_index integer)
LANGUAGE sql AS $$
    WITH due AS (
        SELECT pc.release_id, pc.kind
          FROM voyager.probe_candidates pc
          JOIN voyager.releases r ON r.id = pc.release_id AND r.settled_at IS NOT NULL
         WHERE pc.probed_at IS NULL AND (pc.claimed_until IS NULL OR pc.claimed_until < now())
         ORDER BY pc.release_id
         LIMIT p_limit
           FOR UPDATE OF pc SKIP LOCKED
    )
    UPDATE voyager.probe_candidates pc
       SET claimed_by = p_node, claimed_until = now() + p_lease
      FROM due WHERE pc.release_id = due.release_id AND pc.kind = due.kind
    RETURNING pc.release_id, pc.kind, pc.message_id, pc.file_index
$$;
COMMENT ON FUNCTION voyager.claim_probe_candidates(text, integer, interval)
    IS 'Claims up to p_limit unprobed candidates of finished releases for p_lease (SKIP LOCKED)';
COMMIT;
