-- Deploy voyager:table_releases to pg
BEGIN;
CREATE TABLE voyager.releases (
    id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    posted_at      timestamptz,
    last_posted_at timestamptz,
    first_article  bigint NOT NULL,
    last_article   bigint NOT NULL,
    segments       bigint NOT NULL,
    bytes          bigint NOT NULL,
    settled_at     timestamptz,               -- the finish; null while provisional
    first_seen_at  timestamptz NOT NULL DEFAULT now(),
    group_id       integer NOT NULL,          -- groups, group_sets, posters: by id, without foreign keys (below)
    group_set_id   integer NOT NULL,
    poster_id      integer NOT NULL,
    file_total     integer,
    files          integer NOT NULL,
    category       integer,
    source         smallint NOT NULL,         -- 1 subject, 2 post, 3 stem, 4 spot, 5 nzb, 6 album
    complete       boolean NOT NULL,
    has_par2       boolean NOT NULL,
    edge           boolean NOT NULL DEFAULT false,
    release_key    bytea NOT NULL CHECK (octet_length(release_key) = 20),
    identity_key   bytea NOT NULL CHECK (octet_length(identity_key) = 20),
    name           text NOT NULL,
    -- one row a key: a hash index (20 B an entry, where a btree over 20-byte keys spends ~50)
    CONSTRAINT releases_release_key_excl EXCLUDE USING hash (release_key WITH =)
);
-- No foreign keys on the ingest tables (releases, release_texts, release_chunks,
-- probe_candidates): each is a row trigger that locks the parent row, a fifth of
-- the store's CPU, and store_batch is their one writer, inserting the parents in
-- the same transaction. voyager.check_catalog() finds what a bug would orphan.
COMMENT ON TABLE voyager.releases IS 'One row per catalog release, 8-byte columns first; written once, finished once';
CREATE INDEX releases_identity_idx ON voyager.releases USING hash (identity_key);
CREATE INDEX releases_newest_idx ON voyager.releases (posted_at DESC);
CREATE INDEX releases_provisional_idx ON voyager.releases (id) WHERE settled_at IS NULL;
CREATE INDEX releases_first_seen_brin ON voyager.releases USING brin (first_seen_at);
COMMIT;
