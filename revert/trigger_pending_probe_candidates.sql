-- Revert voyager:trigger_pending_probe_candidates from pg
BEGIN;
DROP TRIGGER pending_probe_candidates_update ON voyager.pending_releases;
DROP TRIGGER pending_probe_candidates_insert ON voyager.pending_releases;
DROP FUNCTION voyager.pending_probe_candidates();
COMMIT;
