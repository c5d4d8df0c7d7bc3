-- Revert voyager:view_status_groups from pg
BEGIN;
DROP VIEW voyager.status_groups;
COMMIT;
