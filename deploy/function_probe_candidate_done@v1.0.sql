-- Deploy voyager:function_probe_candidate_done to pg
BEGIN;
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
