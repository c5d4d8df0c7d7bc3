-- Revert voyager:view_status_spool from pg
BEGIN;
DROP VIEW voyager.status_spool;
COMMIT;
