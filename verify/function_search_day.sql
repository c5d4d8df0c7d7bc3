-- Verify voyager:function_search_day on pg
SELECT 'voyager.search_day(timestamp with time zone)'::regprocedure;
