-- Revert voyager:view_status_recoveries from pg
BEGIN;
DROP VIEW voyager.status_recoveries;
COMMIT;
