-- Verify voyager:function_history_caught_up on pg
SELECT 'voyager.history_caught_up(integer)'::regprocedure;
