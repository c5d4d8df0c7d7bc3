-- Revert voyager:function_setting_bool from pg
BEGIN;
DROP FUNCTION voyager.setting_bool(text);
COMMIT;
