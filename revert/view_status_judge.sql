-- Revert voyager:view_status_judge from pg
BEGIN;
DROP VIEW voyager.status_judge;
COMMIT;
