-- Verify voyager:function_tail_started on pg
SELECT 'voyager.tail_started(integer)'::regprocedure;
