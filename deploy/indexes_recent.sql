-- Deploy voyager:indexes_recent to pg
-- The status views count the last hour's batches and releases. range_batches
-- gets a btree on stored_at (a row a stored batch: nothing to the store);
-- releases a BRIN on first_seen_at: rows are appended in that order, the index
-- is a few pages, and its insert cost is next to nothing, where a btree would
-- add a write to every stored release. The newest pages are not summarized
-- yet, and a BRIN scan always reads unsummarized pages: exactly the recent ones.
BEGIN;
CREATE INDEX range_batches_stored_idx ON voyager.range_batches (stored_at);
CREATE INDEX releases_first_seen_brin ON voyager.releases USING brin (first_seen_at);
COMMIT;
