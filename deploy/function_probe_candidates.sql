-- Deploy voyager:function_probe_candidates to pg
-- Phase 2 reads a few first articles per release; its workers claim the probe
-- candidates of finished releases (settled_at set: a provisional release may
-- still change its files) in a SKIP LOCKED queue with a lease column, so a
-- dead prober's claims come back after the lease.
BEGIN;
ALTER TABLE voyager.probe_candidates
    ADD COLUMN claimed_by    text,
    ADD COLUMN claimed_until timestamptz,
    ADD COLUMN probed_at     timestamptz;
CREATE INDEX probe_candidates_open_idx ON voyager.probe_candidates (release_id) WHERE probed_at IS NULL;

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

CREATE FUNCTION voyager.probe_candidate_done(p_node text, p_release_id bigint, p_kind text) RETURNS boolean
LANGUAGE sql AS $$
    WITH done AS (
        UPDATE voyager.probe_candidates
           SET probed_at = now(), claimed_until = NULL
         WHERE release_id = p_release_id AND kind = p_kind AND claimed_by = p_node AND probed_at IS NULL
        RETURNING 1
    )
    SELECT count(*) > 0 FROM done
$$;
COMMENT ON FUNCTION voyager.probe_candidate_done(text, bigint, text)
    IS 'Marks a claimed candidate probed (false when the claim was lost)';
COMMIT;
