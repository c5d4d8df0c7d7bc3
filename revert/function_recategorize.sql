-- Revert voyager:function_recategorize from pg
BEGIN;
DROP PROCEDURE voyager.recategorize(integer, bigint, bigint, bigint);
COMMIT;
