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
COMMIT;
