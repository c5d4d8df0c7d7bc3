-- Revert voyager:function_lease_rules from pg
BEGIN;
DROP FUNCTION voyager.lease_rules(uuid);
COMMIT;
