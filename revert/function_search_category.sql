-- Revert voyager:function_search_category from pg
BEGIN;
DROP FUNCTION voyager.search_category(integer);
COMMIT;
