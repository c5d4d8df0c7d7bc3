-- Verify voyager:function_search_period on pg
SELECT 'voyager.search_period(text, date)'::regprocedure;
