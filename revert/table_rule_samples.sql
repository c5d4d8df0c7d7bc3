-- Revert voyager:table_rule_samples from pg
BEGIN;
DROP TABLE voyager.rule_samples;
COMMIT;
