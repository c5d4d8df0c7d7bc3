-- Revert voyager:function_settle_complete from pg
BEGIN;
DROP FUNCTION voyager.settle_complete(integer);
COMMIT;
