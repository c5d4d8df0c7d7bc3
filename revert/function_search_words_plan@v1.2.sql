-- Revert voyager:function_search_words_plan from pg
BEGIN;
DROP FUNCTION voyager.search_words_plan(bigint, bigint);
COMMIT;
