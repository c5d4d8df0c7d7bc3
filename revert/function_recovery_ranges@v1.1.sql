-- Revert voyager:function_recovery_ranges from pg
BEGIN;
DROP FUNCTION voyager.recovery_ranges(uuid);
COMMIT;
