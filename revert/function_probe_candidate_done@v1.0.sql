-- Revert voyager:function_probe_candidate_done from pg
BEGIN;
DROP FUNCTION voyager.probe_candidate_done(text, bigint, text);
COMMIT;
