-- Verify voyager:data_rule_set_judge on pg
SELECT 1 / count(*) FROM voyager.rule_sets WHERE version = 1 AND jsonb_typeof(rules -> 'judge') = 'object';
