-- Deploy voyager:alter_jobs_expires_at to pg
BEGIN;
-- A job's claim lease is named as every lease's expiry is (nntp_claims.expires_at):
-- past it, a dead tick's job is free. The check and status_jobs follow the rename.
ALTER TABLE voyager.jobs RENAME COLUMN running_until TO expires_at;
COMMENT ON COLUMN voyager.jobs.expires_at IS 'The claim''s lease: past it, a dead tick''s job is free';
COMMIT;
