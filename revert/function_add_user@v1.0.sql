-- Revert voyager:function_add_user from pg
BEGIN;
DROP FUNCTION voyager.add_user(text, text);
COMMIT;
