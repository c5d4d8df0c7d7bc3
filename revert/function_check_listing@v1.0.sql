-- Revert voyager:function_check_listing from pg
BEGIN;
DROP FUNCTION voyager.check_listing(jsonb);
COMMIT;
