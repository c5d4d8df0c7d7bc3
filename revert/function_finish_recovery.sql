-- Revert voyager:function_finish_recovery from pg
BEGIN;
DROP FUNCTION voyager.finish_recovery(uuid);
COMMIT;
