-- Revert voyager:table_rule_counts from pg
BEGIN;
DROP TABLE voyager.rule_counts;
COMMIT;
