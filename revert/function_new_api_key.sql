-- Revert voyager:function_new_api_key from pg
BEGIN;
DROP FUNCTION voyager.new_api_key();
COMMIT;
