-- Revert voyager:function_search_word_key from pg
BEGIN;
DROP FUNCTION voyager.search_word_key(text, boolean);
COMMIT;
