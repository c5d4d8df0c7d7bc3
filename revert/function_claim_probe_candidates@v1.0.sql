-- Revert voyager:function_claim_probe_candidates from pg
BEGIN;
DROP FUNCTION voyager.claim_probe_candidates(text, integer, interval);
COMMIT;
