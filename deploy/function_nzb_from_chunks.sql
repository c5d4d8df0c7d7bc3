-- Deploy voyager:function_nzb_from_chunks to pg
BEGIN;
-- NZB 1.1 of a release from its chunks in file order, by the compiled codec's
-- one NZB writer (voyager_pl_ext, installed by the set-up beside voyager_pl).
CREATE FUNCTION voyager.nzb_from_chunks(chunks bytea[], title text, poster text, posted_at bigint,
                                        groups text[], category text DEFAULT NULL, password text DEFAULT NULL)
RETURNS text
LANGUAGE plpython3u IMMUTABLE AS $$
from voyager_pl.nzb import build_chunks
return build_chunks(chunks, title, poster, posted_at, groups, category, password)
$$;
COMMENT ON FUNCTION voyager.nzb_from_chunks(bytea[], text, text, bigint, text[], text, text)
    IS 'NZB 1.1 of a release''s chunks: a file per file in chunk order, segments in part order, meta title/category/password';
COMMIT;
