-- Revert voyager:function_search_terms from pg
BEGIN;
DROP FUNCTION voyager.search_terms(text, timestamp with time zone);
COMMIT;
