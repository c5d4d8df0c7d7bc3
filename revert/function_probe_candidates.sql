-- Revert voyager:function_probe_candidates from pg
BEGIN;
DROP FUNCTION voyager.probe_candidate_done(text, bigint, text);
DROP FUNCTION voyager.claim_probe_candidates(text, integer, interval);
DROP INDEX voyager.probe_candidates_open_idx;
ALTER TABLE voyager.probe_candidates DROP COLUMN probed_at, DROP COLUMN claimed_until, DROP COLUMN claimed_by;
COMMIT;
