-- Verify voyager:function_replan_since_snapshot on pg
SELECT 'voyager.replan_since_snapshot(integer, lane)'::regprocedure;
