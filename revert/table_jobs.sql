-- Revert voyager:table_jobs from pg
BEGIN;
DROP TABLE voyager.jobs;
COMMIT;
