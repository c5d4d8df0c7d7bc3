-- Revert voyager:view_status_ranges from pg
BEGIN;
DROP VIEW voyager.status_ranges;
COMMIT;
