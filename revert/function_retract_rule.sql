-- Revert voyager:function_retract_rule from pg
BEGIN;
DROP FUNCTION voyager.retract_rule(text, text, text);
COMMIT;
