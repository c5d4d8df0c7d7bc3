-- Deploy voyager:table_nntp_claims to pg
BEGIN;
-- What each worker process holds of the news account's connections, per role:
-- a row with an expiry, so a dead process's connections come back after the TTL.
CREATE TABLE voyager.nntp_claims (
    node        text NOT NULL CHECK (node <> ''),
    role        text NOT NULL REFERENCES voyager.nntp_shares (role) ON DELETE CASCADE,
    connections integer NOT NULL CHECK (connections >= 0),   -- what it may hold now
    want        integer NOT NULL CHECK (want >= 0),          -- what it asked for
    claimed_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    PRIMARY KEY (node, role)
);
COMMENT ON TABLE voyager.nntp_claims
    IS 'Live claims on the news account''s connections (voyager.nntp_claim); expired rows count for nothing';
COMMIT;
