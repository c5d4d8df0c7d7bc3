-- Revert voyager:function_search_count from pg
BEGIN;
DROP FUNCTION voyager.search_count(text[]);
COMMIT;
