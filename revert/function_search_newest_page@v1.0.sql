-- Revert voyager:function_search_newest_page from pg
BEGIN;
DROP FUNCTION voyager.search_newest_page(integer[], integer, integer);
COMMIT;
