-- Revert voyager:function_fail_range from pg
BEGIN;
DROP FUNCTION voyager.fail_range(uuid, bigint, text);
COMMIT;
