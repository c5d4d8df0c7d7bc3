-- Verify voyager:function_finish_recovery on pg
SELECT 'voyager.finish_recovery(uuid)'::regprocedure;
