-- Revert voyager:view_status_held from pg
BEGIN;
DROP VIEW voyager.status_held;
COMMIT;
