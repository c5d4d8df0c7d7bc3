-- Revert voyager:function_is_group_set from pg
BEGIN;
DROP FUNCTION voyager.is_group_set(text[]);
COMMIT;
