-- Revert voyager:function_nzb_source from pg
BEGIN;
DROP FUNCTION voyager.nzb_source(bigint);
COMMIT;
