-- Deploy voyager:table_recategorize_queue to pg
BEGIN;
-- Releases that learnt an inner name (a text of kinds 2-5: from store_probes,
-- a merge, a naming) and wait for their category to be computed again: the
-- dirty marks the recategorize job drains in bounded batches.
CREATE TABLE voyager.recategorize_queue (
    release_id bigint PRIMARY KEY,
    queued_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.recategorize_queue IS
    'Releases whose inner name changed, their category to be computed again (drained by recategorize_queued)';
COMMIT;
