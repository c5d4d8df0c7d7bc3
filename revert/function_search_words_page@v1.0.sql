-- Revert voyager:function_search_words_page from pg
BEGIN;
DROP FUNCTION voyager.search_words_page(text, integer, integer, boolean, text[], text);
COMMIT;
