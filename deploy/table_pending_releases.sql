-- Deploy voyager:table_pending_releases to pg
BEGIN;
CREATE TABLE voyager.pending_releases (
    release_key    bytea PRIMARY KEY CHECK (octet_length(release_key) = 20),
    identity_key   bytea NOT NULL,
    posted_at      timestamptz,
    last_posted_at timestamptz,
    first_article  bigint NOT NULL,
    last_article   bigint NOT NULL,
    segments       bigint NOT NULL,
    bytes          bigint NOT NULL,
    created_at     timestamptz NOT NULL DEFAULT now(),
    group_id       integer NOT NULL REFERENCES voyager.groups (id),
    files          integer NOT NULL,
    file_total     integer,
    status         smallint NOT NULL DEFAULT 0,   -- 0 waiting, 1 named, 2 discarded, 3 exhausted, 4 named awaiting the move
    finished       boolean NOT NULL,
    complete       boolean NOT NULL,
    tool           text NOT NULL,
    poster         text NOT NULL,
    name           text NOT NULL,                 -- the random stem
    candidates     jsonb NOT NULL                 -- the probe targets [[kind, message-id, file], ...]
);
CREATE INDEX pending_releases_waiting_idx ON voyager.pending_releases (created_at) WHERE status = 0;
COMMENT ON TABLE voyager.pending_releases IS 'Releases without a usable name (decision f): no catalog row, no chunk, until phase 2 names them';
COMMIT;
