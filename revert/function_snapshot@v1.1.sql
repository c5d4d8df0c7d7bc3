-- Revert voyager:function_snapshot from pg
BEGIN;
DROP FUNCTION voyager.snapshot(uuid);
COMMIT;
