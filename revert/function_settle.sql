-- Revert voyager:function_settle from pg
BEGIN;
DROP FUNCTION voyager.settle_complete(integer);
DELETE FROM voyager.settings WHERE name = 'settle_quiet_minutes';
COMMIT;
