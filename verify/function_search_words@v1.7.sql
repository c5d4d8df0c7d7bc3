-- Verify voyager:function_search_words on pg
SELECT 'voyager.search_words(text)'::regprocedure;
