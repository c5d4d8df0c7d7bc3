-- Revert voyager:function_add_release_password from pg
BEGIN;
DROP FUNCTION voyager.add_release_password(bigint, text, text);
COMMIT;
