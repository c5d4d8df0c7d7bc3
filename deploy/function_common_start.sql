-- Deploy voyager:function_common_start to pg: common_starts, many starts in one statement
BEGIN;
-- A file start (the MD5 of its first 16 KiB and its size) that more than 20
-- files share, probed or described by par2 sets (a sample, an advert, an
-- empty file): it tells nothing about which upload a file is of, so it
-- names and merges nothing. common_starts answers for many starts in one
-- statement (the finders' sets); each start still reads at most 21 rows of
-- each index, however common it is.
CREATE FUNCTION voyager.common_starts(p_md5_16k bytea[], p_size bigint[])
RETURNS TABLE (md5_16k bytea, size bigint)
LANGUAGE sql STABLE AS $$
SELECT DISTINCT x.md5_16k, x.size
  FROM unnest(p_md5_16k, p_size) x(md5_16k, size)
 WHERE (SELECT count(*) FROM (SELECT FROM voyager.file_hashes c
                               WHERE c.md5_16k = x.md5_16k AND c.size = x.size LIMIT 21) c) > 20
    OR (SELECT count(*) FROM (SELECT FROM voyager.par2_files g
                               WHERE g.md5_16k = x.md5_16k AND g.size = x.size LIMIT 21) g) > 20
$$;
COMMENT ON FUNCTION voyager.common_starts(bytea[], bigint[])
    IS 'The common ones (common_start) of the file starts given, the MD5s of their first 16 KiB and their sizes side by side';
CREATE OR REPLACE FUNCTION voyager.common_start(p_md5_16k bytea, p_size bigint) RETURNS boolean
LANGUAGE sql STABLE AS $$
SELECT EXISTS (SELECT FROM voyager.common_starts(ARRAY[p_md5_16k], ARRAY[p_size]))
$$;
COMMENT ON FUNCTION voyager.common_start(bytea, bigint)
    IS 'Whether more than 20 probed or par2-described files share this first-16-KiB MD5 and size';
COMMIT;
