-- Verify voyager:function_add_rule_set on pg
SELECT 'voyager.add_rule_set(jsonb, text)'::regprocedure;
