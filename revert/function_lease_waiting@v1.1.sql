-- Revert voyager:function_lease_waiting from pg
BEGIN;
DROP FUNCTION voyager.lease_waiting(uuid);
COMMIT;
