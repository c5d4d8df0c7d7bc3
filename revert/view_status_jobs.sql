-- Revert voyager:view_status_jobs from pg
BEGIN;
DROP VIEW voyager.status_jobs;
COMMIT;
