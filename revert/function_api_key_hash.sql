-- Revert voyager:function_api_key_hash from pg
BEGIN;
DROP FUNCTION voyager.api_key_hash(text);
COMMIT;
