-- Revert voyager:function_lease_recovery from pg
BEGIN;
DROP FUNCTION voyager.lease_recovery(text);
COMMIT;
