-- Deploy voyager:table_range_batches to pg
BEGIN;
CREATE TABLE voyager.range_batches (
    range_id      bigint NOT NULL REFERENCES voyager.ranges (id) ON DELETE CASCADE,
    first_article bigint NOT NULL,
    next_article  bigint NOT NULL,
    headers       bigint NOT NULL DEFAULT 0,
    stored_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (range_id, first_article),
    CONSTRAINT range_batches_span_check CHECK (next_article > first_article)
);
COMMENT ON TABLE voyager.range_batches IS 'Each stored batch''s span within its range: a redo after a takeover removes the ones past the snapshot';
-- The status views count the last hour's batches and releases. range_batches
-- gets a btree on stored_at (a row a stored batch: nothing to the store);
-- releases a BRIN on first_seen_at: rows are appended in that order, the index
-- is a few pages, and its insert cost is next to nothing, where a btree would
-- add a write to every stored release. The newest pages are not summarized
-- yet, and a BRIN scan always reads unsummarized pages: exactly the recent ones.
CREATE INDEX range_batches_stored_idx ON voyager.range_batches (stored_at);
COMMIT;
