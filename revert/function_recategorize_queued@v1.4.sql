-- Revert voyager:function_recategorize_queued from pg
BEGIN;
DROP FUNCTION voyager.recategorize_queued(integer);
COMMIT;
