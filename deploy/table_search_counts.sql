-- Deploy voyager:table_search_counts to pg
BEGIN;
CREATE TABLE voyager.search_counts (
    key      text PRIMARY KEY,               -- '*', 'c:<category>', 'w:<word>' (a tracked word)
    releases bigint NOT NULL
);
COMMENT ON TABLE voyager.search_counts
    IS 'Searchable releases per key (all, category, tracked word), as of the last fold';
COMMIT;
