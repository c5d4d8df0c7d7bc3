-- Revert voyager:data_rule_set_judge from pg
BEGIN;
UPDATE voyager.rule_sets SET rules = rules - 'judge' WHERE version = 1;
COMMIT;
