-- Verify voyager:function_settle_complete on pg
SELECT 'voyager.settle_complete(integer)'::regprocedure;
