-- Revert voyager:view_status_phase2 from pg
BEGIN;
DROP VIEW voyager.status_phase2;
COMMIT;
