-- Revert voyager:function_recategorize_batch from pg
BEGIN;
DROP FUNCTION voyager.recategorize_batch(bigint, integer);
COMMIT;
