-- Revert voyager:view_status_merges from pg
BEGIN;
DROP VIEW voyager.status_merges;
COMMIT;
