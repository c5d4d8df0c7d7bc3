-- Revert voyager:function_search_category_key from pg
BEGIN;
DROP FUNCTION voyager.search_category_key(integer);
COMMIT;
