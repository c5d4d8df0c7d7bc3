-- Deploy voyager:table_catalog to pg
-- The catalog the window's batches become (issue 5): slim release rows with
-- posters and group sets by id, one trigram index over every searchable text,
-- write-once chunks, pending releases (decision f), probe candidates, and per
-- batch rule counts and samples (a redone batch replaces its own).
BEGIN;
CREATE TABLE voyager.posters (
    id     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    poster text NOT NULL UNIQUE
);
COMMENT ON TABLE voyager.posters IS 'Each distinct From once; releases refer to it by id';

-- A group set is stored sorted and without repeats, so that one combination is one row;
-- store_batch takes the sets as the client sends them and this check refuses others.
CREATE FUNCTION voyager.is_group_set(p_groups text[]) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT cardinality(p_groups) > 0
       AND p_groups = ARRAY(SELECT DISTINCT g COLLATE "C" FROM unnest(p_groups) g ORDER BY 1)
$$;

CREATE TABLE voyager.group_sets (
    id     integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    groups text[] NOT NULL UNIQUE CHECK (voyager.is_group_set(groups))   -- sorted (bytewise), distinct
);
COMMENT ON TABLE voyager.group_sets IS 'Each distinct combination of groups a release was posted to, once';

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

-- A row a release and kind: several strings of one kind (an album's members)
-- are one text, a line each, so they share their row and their trigrams.
CREATE TABLE voyager.release_texts (
    release_id bigint NOT NULL,
    posted_at  timestamptz,                   -- its release's: a search orders and buckets matches without the release
    kind       smallint NOT NULL,             -- 1 name, 2 file, 3 nfo, 4 par2, 5 media, 6 album members
    text       text NOT NULL
);
CREATE INDEX release_texts_release_idx ON voyager.release_texts (release_id);
CREATE INDEX release_texts_trgm_idx ON voyager.release_texts USING gin (text gin_trgm_ops)
    WITH (fastupdate = on, gin_pending_list_limit = 256);   -- kB: a small pending list, so its pages are few and reused
COMMENT ON TABLE voyager.release_texts IS 'Every searchable string of a release; one trigram index serves every search';

-- The partition month of a release's chunk: its posting month in UTC (whatever the
-- session's TimeZone), 1970-01 when the date is unknown. A chunk is found by
-- (chunk_month(posted_at), release_id), so a lookup touches one partition.
CREATE FUNCTION voyager.chunk_month(p_posted_at timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(date_trunc('month', p_posted_at AT TIME ZONE 'UTC')::date, date '1970-01-01')
$$;

CREATE TABLE voyager.release_chunks (
    release_id bigint NOT NULL,
    month      date NOT NULL,                 -- chunk_month(the release's posted_at): the partition
    created_at timestamptz NOT NULL DEFAULT now(),
    chunk      bytea NOT NULL,                -- ext.codec: files, names, sizes, segment lists
    PRIMARY KEY (month, release_id)
) PARTITION BY RANGE (month);
ALTER TABLE voyager.release_chunks ALTER COLUMN chunk SET STORAGE EXTERNAL;   -- already compressed
CREATE TABLE voyager.release_chunks_default PARTITION OF voyager.release_chunks DEFAULT;
COMMENT ON TABLE voyager.release_chunks IS 'Write-once segment lists of releases, partitioned by posting month';

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

CREATE TABLE voyager.probe_candidates (
    release_id  bigint NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('archive', 'par2', 'lone', '7z-tail')),
    message_id  text NOT NULL,
    file_index  integer NOT NULL,
    PRIMARY KEY (release_id, kind)
);
COMMENT ON TABLE voyager.probe_candidates IS 'The articles phase 2 reads per release; claimable once the release is finished';

CREATE TABLE voyager.rule_counts (
    range_id      bigint NOT NULL,
    first_article bigint NOT NULL,            -- the batch that counted it
    rule          text NOT NULL,
    key           text NOT NULL,
    articles      bigint NOT NULL,
    files         bigint NOT NULL,
    releases      bigint NOT NULL,
    PRIMARY KEY (range_id, first_article, rule, key),
    FOREIGN KEY (range_id, first_article) REFERENCES voyager.range_batches (range_id, first_article) ON DELETE CASCADE
);
COMMENT ON TABLE voyager.rule_counts IS 'What each rule skipped or dropped, per batch of a range; a redone batch replaces its counts';

CREATE TABLE voyager.rule_samples (
    range_id      bigint NOT NULL,
    first_article bigint NOT NULL,
    release_key   bytea NOT NULL,
    rule          text NOT NULL,
    key           text NOT NULL,
    sample        jsonb NOT NULL,             -- the release with its files, as the window saw it
    PRIMARY KEY (range_id, first_article, release_key),
    FOREIGN KEY (range_id, first_article) REFERENCES voyager.range_batches (range_id, first_article) ON DELETE CASCADE
);
COMMENT ON TABLE voyager.rule_samples IS '~1% of what each rule dropped, with full file details';

-- What a batch hands store_batch: arrays of these (no call per release).
CREATE TYPE voyager.release_in AS (
    release_key bytea, identity_key bytea, name text, source smallint, poster text, groups text[],
    posted_at bigint, last_posted_at bigint, first_article bigint, last_article bigint, files integer,
    segments bigint, bytes bigint, file_total integer, complete boolean, has_par2 boolean, finished boolean,
    edge boolean, chunk bytea, members text, candidates text[]      -- members: a line each; candidates: kind, message-id, file index, ...
);
CREATE TYPE voyager.pending_in AS (
    release_key bytea, identity_key bytea, name text, poster text, tool text, posted_at bigint,
    last_posted_at bigint, first_article bigint, last_article bigint, files integer, segments bigint,
    bytes bigint, file_total integer, complete boolean, finished boolean, candidates jsonb
);
CREATE TYPE voyager.count_in AS (rule text, key text, articles bigint, files bigint, releases bigint);
CREATE TYPE voyager.sample_in AS (release_key bytea, rule text, key text, sample jsonb);
COMMIT;
