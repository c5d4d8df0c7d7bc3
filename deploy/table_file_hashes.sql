-- Deploy voyager:table_file_hashes to pg
BEGIN;
-- Per probed file start (its first article): the MD5 of the file's first 16 KiB
-- and its size, whatever its name; a par2 set's files match by the same pair.
CREATE TABLE voyager.file_hashes (
    message_id  text PRIMARY KEY,             -- the file's first article
    md5_16k     bytea NOT NULL CHECK (octet_length(md5_16k) = 16),
    size        bigint NOT NULL,
    release_id  bigint,                       -- the catalog release, or
    pending_key bytea,                        -- the pending release it was probed for
    file_index  integer NOT NULL
);
CREATE INDEX file_hashes_hash_idx ON voyager.file_hashes (md5_16k, size);
CREATE INDEX file_hashes_release_idx ON voyager.file_hashes (release_id) WHERE release_id IS NOT NULL;
COMMENT ON TABLE voyager.file_hashes IS 'MD5 of the first 16 KiB and size per probed file start';
COMMIT;
