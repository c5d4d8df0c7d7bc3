-- Deploy voyager:table_search_count_deltas to pg
BEGIN;
CREATE TABLE voyager.search_count_deltas (
    key   text NOT NULL,
    delta bigint NOT NULL
);
CREATE INDEX search_count_deltas_key_idx ON voyager.search_count_deltas (key);
COMMENT ON TABLE voyager.search_count_deltas
    IS 'Changes of search_counts not folded yet, appended by the catalog''s statement triggers';
COMMIT;
