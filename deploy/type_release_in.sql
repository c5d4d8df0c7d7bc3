-- Deploy voyager:type_release_in to pg
BEGIN;
-- What a batch hands store_batch: arrays of these (no call per release).
CREATE TYPE voyager.release_in AS (
    release_key bytea, identity_key bytea, name text, source smallint, poster text, groups text[],
    posted_at bigint, last_posted_at bigint, first_article bigint, last_article bigint, files integer,
    segments bigint, bytes bigint, file_total integer, complete boolean, has_par2 boolean, finished boolean,
    edge boolean, chunk bytea, members text, candidates text[]      -- members: a line each; candidates: kind, message-id, file index, ...
);
COMMIT;
