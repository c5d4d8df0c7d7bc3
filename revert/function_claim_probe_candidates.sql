-- Revert voyager:function_claim_probe_candidates from pg: the order without pending signatures
BEGIN;
-- Claims up to p_limit probe targets for p_lease, in the queue's order (rank:
-- random names before readable ones, then the lone file, the first archive
-- volume, the smallest par2, a 7z set's tail, the nfo, the main file), of
-- settled releases and finished pending ones (a provisional release may still
-- change its files). SKIP LOCKED on the rows, a lease in expires_at: a dead
-- prober's claims come back when it runs out. Each claim gets a token of its
-- own that store_probes checks, so a result for a claim taken over changes
-- nothing. A target whose article the probe cache already knows comes back
-- with `cached` true: the prober answers it without a fetch. A target tried
-- p_attempts times without an answer (its prober killed, its fetch failing) is
-- left alone (status_phase2 counts it stuck).
CREATE OR REPLACE FUNCTION voyager.claim_probe_candidates(p_node text, p_limit integer DEFAULT 100,
                                               p_lease interval DEFAULT interval '10 minutes',
                                               p_attempts integer DEFAULT 5)
RETURNS TABLE (claim uuid, release_id bigint, pending_key bytea, kind text, message_id text,
               file_index integer, cached boolean)
LANGUAGE sql AS $$
    WITH due AS (
        SELECT pc.ctid AS row_at
          FROM voyager.probe_candidates pc
          LEFT JOIN voyager.releases r ON r.id = pc.release_id
          LEFT JOIN voyager.pending_releases p ON p.release_key = pc.pending_key
         WHERE pc.probed_at IS NULL AND (pc.expires_at IS NULL OR pc.expires_at < now())
           AND pc.attempts < p_attempts
           AND (r.settled_at IS NOT NULL OR (p.finished AND p.status = 0))
         ORDER BY pc.rank, pc.release_id, pc.pending_key
         LIMIT p_limit
           FOR UPDATE OF pc SKIP LOCKED
    ), token AS (
        SELECT gen_random_uuid() AS claim
    )
    UPDATE voyager.probe_candidates pc
       SET claimed_by = p_node, expires_at = now() + p_lease, claim = token.claim, attempts = pc.attempts + 1
      FROM due, token
     WHERE pc.ctid = due.row_at
    RETURNING pc.claim, pc.release_id, pc.pending_key, pc.kind, pc.message_id, pc.file_index,
              EXISTS (SELECT 1 FROM voyager.probe_cache c WHERE c.message_id = pc.message_id)
$$;
COMMENT ON FUNCTION voyager.claim_probe_candidates(text, integer, interval, integer)
    IS 'Claims up to p_limit probe targets of settled (or finished pending) releases in the queue''s order for p_lease (SKIP LOCKED); cached: the probe cache knows the article';
COMMIT;
