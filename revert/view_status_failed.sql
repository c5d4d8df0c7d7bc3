-- Revert voyager:view_status_failed from pg
BEGIN;
DROP VIEW voyager.status_failed;
COMMIT;
