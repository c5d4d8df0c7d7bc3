-- Revert voyager:alter_jobs_place from pg
BEGIN;
ALTER TABLE voyager.jobs DROP COLUMN place;
COMMIT;
