-- Verify voyager:function_plan_groups on pg
SELECT has_function_privilege('voyager.plan_groups(jsonb, text)', 'execute');
SELECT has_function_privilege('voyager.check_listing(jsonb)', 'execute');
