-- Revert voyager:function_console_category from pg
BEGIN;
DROP FUNCTION voyager.console_category(text);
COMMIT;
