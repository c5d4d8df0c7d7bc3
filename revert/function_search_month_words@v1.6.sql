-- Revert voyager:function_search_month_words from pg
BEGIN;
DROP FUNCTION voyager.search_month_words(text[], date);
COMMIT;
