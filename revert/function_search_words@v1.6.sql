-- Revert voyager:function_search_words from pg
BEGIN;
DROP FUNCTION voyager.search_words(text);
COMMIT;
