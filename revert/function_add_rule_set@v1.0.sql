-- Revert voyager:function_add_rule_set from pg
BEGIN;
DROP FUNCTION voyager.add_rule_set(jsonb, text);
COMMIT;
