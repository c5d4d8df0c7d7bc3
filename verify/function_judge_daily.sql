-- Verify voyager:function_judge_daily on pg
SELECT 'voyager.judge_daily()'::regprocedure;
