-- Deploy voyager:table_release_texts to pg
BEGIN;
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
COMMIT;
