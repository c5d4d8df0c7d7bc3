-- Revert voyager:function_set_group_active from pg
BEGIN;
DROP FUNCTION voyager.set_group_active(text, boolean);
COMMIT;
