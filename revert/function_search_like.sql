-- Revert voyager:function_search_like from pg
BEGIN;
DROP FUNCTION voyager.search_like(text);
COMMIT;
