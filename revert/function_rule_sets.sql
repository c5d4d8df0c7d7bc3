-- Revert voyager:function_rule_sets from pg
BEGIN;
DROP FUNCTION voyager.rule_set(integer);
DROP FUNCTION voyager.add_rule_set(jsonb, text);
COMMIT;
