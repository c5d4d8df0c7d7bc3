-- Revert voyager:view_status_leases from pg
BEGIN;
DROP VIEW voyager.status_leases;
COMMIT;
