-- Deploy voyager:type_pending_in to pg
BEGIN;
CREATE TYPE voyager.pending_in AS (
    release_key bytea, identity_key bytea, name text, poster text, tool text, posted_at bigint,
    last_posted_at bigint, first_article bigint, last_article bigint, files integer, segments bigint,
    bytes bigint, file_total integer, complete boolean, finished boolean, candidates jsonb
);
COMMIT;
