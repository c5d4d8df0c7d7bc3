-- Revert voyager:function_common_start from pg
BEGIN;
DROP FUNCTION voyager.common_start(bytea, bigint);
COMMIT;
