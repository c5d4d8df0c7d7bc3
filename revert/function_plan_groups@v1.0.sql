-- Revert voyager:function_plan_groups from pg
BEGIN;
DROP FUNCTION voyager.plan_groups(jsonb, text);
COMMIT;
