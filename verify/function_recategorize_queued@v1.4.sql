-- Verify voyager:function_recategorize_queued on pg
SELECT 'voyager.recategorize_queued(integer)'::regprocedure;
