-- Revert voyager:function_merge_pass from pg
BEGIN;
DROP FUNCTION voyager.merge_pass();
COMMIT;
