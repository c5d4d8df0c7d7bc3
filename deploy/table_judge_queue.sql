-- Deploy voyager:table_judge_queue to pg
BEGIN;
-- Releases something a judge rule reads changed for (a probe result, a file
-- hash, a password, an inner name, a merge, the name or settling): the dirty
-- marks the judge job drains in bounded batches. A mark may name a
-- merged-away release: its survivor is judged.
CREATE TABLE voyager.judge_queue (
    release_id bigint PRIMARY KEY,
    marked_at  timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.judge_queue IS 'Releases to judge again (dirty marks), drained by judge_dirty';
COMMIT;
