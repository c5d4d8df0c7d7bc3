-- Verify voyager:function_check_search_counts on pg
SELECT 'voyager.check_search_counts()'::regprocedure;
