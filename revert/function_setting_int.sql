-- Revert voyager:function_setting_int from pg
BEGIN;
DROP FUNCTION voyager.setting_int(text);
COMMIT;
