-- Verify voyager:function_search_count on pg
SELECT 'voyager.search_count(text[])'::regprocedure;
