-- Deploy voyager:table_release_chunks to pg
BEGIN;
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
COMMIT;
