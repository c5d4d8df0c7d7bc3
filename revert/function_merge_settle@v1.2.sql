-- Revert voyager:function_merge_settle from pg
BEGIN;
DROP FUNCTION voyager.merge_settle(bigint[]);
COMMIT;
