-- Revert voyager:function_nzb from pg
BEGIN;
DROP FUNCTION voyager.nzb(bigint);
COMMIT;
