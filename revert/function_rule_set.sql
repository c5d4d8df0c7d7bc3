-- Revert voyager:function_rule_set from pg
BEGIN;
DROP FUNCTION voyager.rule_set(integer);
COMMIT;
