-- Verify voyager:function_rule_sets on pg
SELECT has_function_privilege('voyager.add_rule_set(jsonb, text)', 'execute'),
       has_function_privilege('voyager.rule_set(integer)', 'execute');
