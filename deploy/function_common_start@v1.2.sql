-- Deploy voyager:function_common_start to pg
BEGIN;
-- A file start (the MD5 of its first 16 KiB and its size) that more than 20
-- files share, probed or described by par2 sets (a sample, an advert, an
-- empty file): it tells nothing about which upload a file is of, so it
-- names and merges nothing.
CREATE FUNCTION voyager.common_start(p_md5_16k bytea, p_size bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
SELECT (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                               WHERE c.md5_16k = p_md5_16k AND c.size = p_size LIMIT 21) c) > 20
    OR (SELECT count(*) FROM (SELECT FROM voyager.par2_files g
                               WHERE g.md5_16k = p_md5_16k AND g.size = p_size LIMIT 21) g) > 20
$$;
COMMENT ON FUNCTION voyager.common_start(bytea, bigint)
    IS 'Whether more than 20 probed or par2-described files share this first-16-KiB MD5 and size';
COMMIT;
