-- Revert voyager:function_api_use from pg
BEGIN;
DROP FUNCTION voyager.api_use(text, text, bigint);
COMMIT;
