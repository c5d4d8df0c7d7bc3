-- Revert voyager:function_api_use from pg
BEGIN;
DROP FUNCTION voyager.api_use(text, text, bigint);
DROP FUNCTION voyager.add_user(text, text);
COMMIT;
