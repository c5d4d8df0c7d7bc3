-- Revert voyager:table_group_leases from pg
BEGIN;
DROP TABLE voyager.group_leases;
COMMIT;
