-- Verify voyager:function_estimate_range_dates on pg
SELECT 'voyager.estimate_range_dates(text)'::regprocedure;
