-- Deploy voyager:alter_jobs_place_id to pg
BEGIN;
-- A job that walks the catalog by id (judge_daily): the id it has judged up
-- to in the pass that began at its place; null before a pass.
ALTER TABLE voyager.jobs ADD COLUMN place_id bigint;
COMMENT ON COLUMN voyager.jobs.place_id IS 'A job walking by id: the last id done in the pass begun at place; null between passes';
COMMIT;
