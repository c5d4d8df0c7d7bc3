-- Revert voyager:views_status from pg
BEGIN;
DROP VIEW voyager.status_leases;
DROP VIEW voyager.status_ranges;
DROP VIEW voyager.status_groups;
COMMIT;
