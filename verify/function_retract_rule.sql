-- Verify voyager:function_retract_rule on pg
SELECT 'voyager.retract_rule(text, text, text)'::regprocedure;
