-- Revert voyager:function_sign_in from pg
BEGIN;
DROP FUNCTION voyager.sign_in(text, text, text);
COMMIT;
