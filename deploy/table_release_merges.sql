-- Deploy voyager:table_release_merges to pg
BEGIN;
-- What went where: a row a merged release, so a merge can be undone
-- (unmerge_releases) and a redo changes nothing. A survivor's own head before
-- its first merge is kept beside it (release_own_totals): its columns carry
-- the merged totals while it has members, its own again when it has none.
CREATE TABLE voyager.release_merges (
    merged_id   bigint PRIMARY KEY,
    survivor_id bigint NOT NULL,
    via         text NOT NULL CHECK (via IN ('par2', 'name', 'inner', 'sidecar')),
    set_id      bytea CHECK (octet_length(set_id) = 16),      -- the par2 set that proved it, if one did
    merged_at   timestamptz NOT NULL DEFAULT now(),
    CHECK (merged_id <> survivor_id)
);
CREATE INDEX release_merges_survivor_idx ON voyager.release_merges (survivor_id);
COMMENT ON TABLE voyager.release_merges IS 'Each merged release: its survivor, the rule (via) and the par2 set that proved it';

CREATE TABLE voyager.release_own_totals (
    release_id     bigint PRIMARY KEY,
    posted_at      timestamptz,
    last_posted_at timestamptz,
    first_article  bigint NOT NULL,
    last_article   bigint NOT NULL,
    segments       bigint NOT NULL,
    bytes          bigint NOT NULL,
    files          integer NOT NULL,
    complete       boolean NOT NULL,
    has_par2       boolean NOT NULL,
    source         smallint NOT NULL,
    name           text NOT NULL,
    password_status smallint,                 -- its release_passwords row (null: none)
    password       text,
    password_source text
);
COMMENT ON TABLE voyager.release_own_totals IS
    'A survivor''s own head before it held merged releases: restored when its last member leaves';
COMMIT;
