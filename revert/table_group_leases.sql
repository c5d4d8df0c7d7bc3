-- Revert voyager:table_group_leases from pg
BEGIN;
DROP SEQUENCE voyager.group_lease_turns;
DROP TABLE voyager.group_leases;
COMMIT;
