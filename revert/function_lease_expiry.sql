-- Revert voyager:function_lease_expiry from pg
BEGIN;
DROP FUNCTION voyager.lease_expiry();
COMMIT;
