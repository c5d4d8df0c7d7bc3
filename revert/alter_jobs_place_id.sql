-- Revert voyager:alter_jobs_place_id from pg
BEGIN;
ALTER TABLE voyager.jobs DROP COLUMN place_id;
COMMIT;
