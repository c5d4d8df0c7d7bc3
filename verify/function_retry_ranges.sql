-- Verify voyager:function_retry_ranges on pg
SELECT 'voyager.retry_ranges(text)'::regprocedure;
