-- Revert voyager:function_check_catalog from pg
BEGIN;
DROP FUNCTION voyager.check_catalog();
COMMIT;
