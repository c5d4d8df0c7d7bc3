-- Revert voyager:function_lease_group from pg
BEGIN;
DROP FUNCTION voyager.lease_group(text, text, integer, integer, boolean);
COMMIT;
