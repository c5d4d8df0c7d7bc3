-- Deploy voyager:table_search_totals to pg
BEGIN;
-- Exact search totals the web counted, by query and catalog state, shared by
-- its worker processes (a common word's count costs up to a second on a
-- million releases: once per catalog state, not once per process). Unlogged:
-- a crash loses only what is counted again.
CREATE UNLOGGED TABLE voyager.search_totals (
    query_hash bytea PRIMARY KEY CHECK (octet_length(query_hash) = 20),   -- sha1 of the query's canonical form
    state      bigint NOT NULL,                -- voyager.catalog_state() the total was counted at
    total      bigint NOT NULL,
    counted_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE voyager.search_totals IS 'Search totals by query and catalog state (the web''s shared cache; stale states are pruned)';
COMMIT;
