-- Revert voyager:function_settings from pg
BEGIN;
DROP FUNCTION voyager.setting_bool(text);
DROP FUNCTION voyager.setting_int(text);
COMMIT;
