-- Verify voyager:function_search_words_plan on pg
SELECT 'voyager.search_words_plan(bigint, bigint)'::regprocedure;
