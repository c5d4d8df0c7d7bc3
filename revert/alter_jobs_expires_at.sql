-- Revert voyager:alter_jobs_expires_at from pg
BEGIN;
COMMENT ON COLUMN voyager.jobs.expires_at IS NULL;
ALTER TABLE voyager.jobs RENAME COLUMN expires_at TO running_until;
COMMIT;
