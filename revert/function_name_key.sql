-- Revert voyager:function_name_key from pg
BEGIN;
DROP FUNCTION voyager.name_key(text);
COMMIT;
