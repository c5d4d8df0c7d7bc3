-- Verify voyager:function_recategorize_batch on pg
SELECT 'voyager.recategorize_batch(bigint, integer)'::regprocedure;
