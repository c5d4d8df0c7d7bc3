-- Revert voyager:function_estimated_rows from pg
BEGIN;
DROP FUNCTION voyager.estimated_rows(regclass, bigint);
COMMIT;
