-- Revert voyager:function_merges_lock from pg
BEGIN;
DROP FUNCTION voyager.merges_lock(boolean);
COMMIT;
