-- Deploy voyager:table_spot_matches to pg
BEGIN;
-- What the spot inspector read of a spot's NZB (alt.binaries.ftd): one row a
-- spot inspected, its state noted (read, placeholder: no segments, gone: an
-- article the server no longer has, unreadable: it did not inflate or parse;
-- error says how), and for a read one what matching needs: its files' release
-- identities and first and last segments' message-ids, and its files as one
-- release chunk (the window's codec) should it become a release of its own.
CREATE TABLE voyager.spot_nzbs (
    spot_id       text PRIMARY KEY REFERENCES voyager.spots (message_id) ON DELETE CASCADE,
    state         text NOT NULL CHECK (state IN ('read', 'placeholder', 'gone', 'unreadable', 'none')),
    error         text,
    files         integer NOT NULL DEFAULT 0,
    segments      bigint NOT NULL DEFAULT 0,
    bytes         bigint NOT NULL DEFAULT 0,
    has_par2      boolean NOT NULL DEFAULT false,
    poster        text,
    groups        text[] NOT NULL DEFAULT '{}',
    identity_keys bytea[] NOT NULL DEFAULT '{}',
    message_ids   text[] NOT NULL DEFAULT '{}',
    chunk         bytea,
    inspected_at  timestamptz NOT NULL DEFAULT now(),
    tries         integer NOT NULL DEFAULT 0,
    next_try_at   timestamptz                 -- unmatched: the next look (hourly); null: matched or not readable
);
CREATE INDEX spot_nzbs_due ON voyager.spot_nzbs (next_try_at) WHERE next_try_at IS NOT NULL;
COMMENT ON TABLE voyager.spot_nzbs IS
    'The spot inspector''s reading of a spot''s NZB: its state, and for a read one its files'' identities, message-ids and chunk';

-- A spot's link to the release it describes: a catalog release (release_id),
-- or a pending one (pending_key) the spot named until the namer moves it; via
-- how it was found (message-id, identity, alone: the spot's own release).
-- applied_at: its category and password given; the prior_* columns are what
-- the release had before, so a dispose gives them back.
CREATE TABLE voyager.spot_matches (
    spot_id        text PRIMARY KEY REFERENCES voyager.spots (message_id) ON DELETE CASCADE,
    release_id     bigint,
    pending_key    bytea,
    via            text NOT NULL CHECK (via IN ('message-id', 'identity', 'alone')),
    matched_at     timestamptz NOT NULL DEFAULT now(),
    applied_at     timestamptz,
    password_set   boolean NOT NULL DEFAULT false,
    prior_status   smallint,
    prior_source   text,
    category_set   boolean NOT NULL DEFAULT false,
    prior_category integer,
    CONSTRAINT spot_matches_target_check CHECK (release_id IS NOT NULL OR pending_key IS NOT NULL)
);
CREATE INDEX spot_matches_release_idx ON voyager.spot_matches (release_id);
CREATE INDEX spot_matches_pending_idx ON voyager.spot_matches (pending_key) WHERE release_id IS NULL;
COMMENT ON TABLE voyager.spot_matches IS
    'Spots linked to their releases (catalog or pending), how, and what the link gave them';

-- a spot's release identity finds pending releases too
CREATE INDEX pending_releases_identity_idx ON voyager.pending_releases USING hash (identity_key);

-- The judge's dirty mark: a release a spot comes to name, or no longer names.
CREATE TRIGGER spot_matches_judge_insert AFTER INSERT ON voyager.spot_matches
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');
CREATE TRIGGER spot_matches_judge_update AFTER UPDATE ON voyager.spot_matches
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');
CREATE TRIGGER spot_matches_judge_delete AFTER DELETE ON voyager.spot_matches
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.judge_mark_columns('release_id');
COMMIT;
