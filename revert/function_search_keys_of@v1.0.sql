-- Revert voyager:function_search_keys_of from pg
BEGIN;
DROP FUNCTION voyager.search_keys_of(bigint[], boolean);
COMMIT;
