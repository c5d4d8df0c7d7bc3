-- Verify voyager:function_search_words_page on pg
SELECT 'voyager.search_words_page(text, integer, integer, boolean, text[], text)'::regprocedure;
