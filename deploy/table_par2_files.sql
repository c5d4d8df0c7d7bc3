-- Deploy voyager:table_par2_files to pg
BEGIN;
-- Every file a par2 set describes: its name, size and both hashes, so a file is
-- known by its first 16 KiB whatever it was renamed to (file_hashes).
CREATE TABLE voyager.par2_files (
    set_id  bytea NOT NULL,
    file_id bytea NOT NULL CHECK (octet_length(file_id) = 16),
    name    text NOT NULL,
    size    bigint NOT NULL,
    md5_16k bytea NOT NULL CHECK (octet_length(md5_16k) = 16),
    md5     bytea NOT NULL CHECK (octet_length(md5) = 16),
    PRIMARY KEY (set_id, file_id)
);
CREATE INDEX par2_files_hash_idx ON voyager.par2_files (md5_16k, size);
COMMENT ON TABLE voyager.par2_files IS 'The files of a par2 set: name, size, MD5 of the first 16 KiB, MD5';
COMMIT;
