-- Revert voyager:function_plan_recovery from pg
BEGIN;
DROP FUNCTION voyager.plan_recovery(text, text);
COMMIT;
