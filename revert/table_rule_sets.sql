-- Revert voyager:table_rule_sets from pg
BEGIN;
DROP TABLE voyager.rule_sets;
COMMIT;
