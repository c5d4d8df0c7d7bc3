-- Revert voyager:view_status_catalog from pg
BEGIN;
DROP VIEW voyager.status_catalog;
COMMIT;
