-- Verify voyager:function_plan_recovery on pg
SELECT 'voyager.plan_recovery(text, text)'::regprocedure;
