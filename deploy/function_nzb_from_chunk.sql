-- Deploy voyager:function_nzb_from_chunk to pg
BEGIN;
-- NZB 1.1 of one release from its chunk (the window's codec, decoded by the
-- server's own Python); voyager.nzb(release_id) builds on it.
CREATE FUNCTION voyager.nzb_from_chunk(chunk bytea, title text, poster text, posted_at bigint,
                                       groups text[], category text DEFAULT NULL, password text DEFAULT NULL)
RETURNS text
LANGUAGE plpython3u IMMUTABLE AS $$
from voyager_pl.nzb import build
return build(chunk, title, poster, posted_at, groups, category, password)
$$;
COMMENT ON FUNCTION voyager.nzb_from_chunk(bytea, text, text, bigint, text[], text, text)
    IS 'NZB 1.1 of a release chunk: a file per file, segments in part order, meta title/category/password';
COMMIT;
