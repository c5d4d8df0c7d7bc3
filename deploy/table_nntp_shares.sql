-- Deploy voyager:table_nntp_shares to pg
BEGIN;
CREATE TABLE voyager.nntp_shares (
    role            text PRIMARY KEY CHECK (role ~ '^[a-z][a-z0-9_-]*$'),
    min_connections integer NOT NULL DEFAULT 0 CHECK (min_connections >= 0),
    max_connections integer NOT NULL CHECK (max_connections >= 1),
    priority        integer NOT NULL DEFAULT 0,   -- lower grows first into connections others closed
    CONSTRAINT nntp_shares_bounds_check CHECK (min_connections <= max_connections)
);
COMMENT ON TABLE voyager.nntp_shares IS 'The news account''s connection budget per role (headers, probes, spots)';
COMMIT;
