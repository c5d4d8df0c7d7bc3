-- Revert voyager:function_lease_of from pg
BEGIN;
DROP FUNCTION voyager.lease_of(uuid);
COMMIT;
