-- Verify voyager:function_date_samples_due on pg
SELECT 'voyager.date_samples_due(integer)'::regprocedure;
