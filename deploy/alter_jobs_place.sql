-- Deploy voyager:alter_jobs_place to pg
BEGIN;
-- An incremental job's place: what it has read up to (by time), so a run
-- reads only what is new; null before its first run.
ALTER TABLE voyager.jobs ADD COLUMN place timestamptz;
COMMENT ON COLUMN voyager.jobs.place IS 'An incremental job''s place: it has read what is older; null before its first run';
COMMIT;
