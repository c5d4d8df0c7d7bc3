-- Verify voyager:function_pending_ladder on pg
SELECT 'voyager.pending_ladder(integer)'::regprocedure;
