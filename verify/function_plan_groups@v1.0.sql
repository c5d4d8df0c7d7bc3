-- Verify voyager:function_plan_groups on pg
SELECT 'voyager.plan_groups(jsonb, text)'::regprocedure;
