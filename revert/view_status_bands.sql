-- Revert voyager:view_status_bands from pg
BEGIN;
DROP VIEW voyager.status_bands;
COMMIT;
