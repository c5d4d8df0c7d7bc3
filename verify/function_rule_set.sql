-- Verify voyager:function_rule_set on pg
SELECT 'voyager.rule_set(integer)'::regprocedure;
