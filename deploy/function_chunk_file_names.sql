-- Deploy voyager:function_chunk_file_names to pg
BEGIN;
-- The file names a release chunk holds, in its order: the compiled codec's
-- decode, the one reader of the format (installed beside voyager_pl as
-- voyager_pl_ext, as for the NZBs). A chunk that does not decode names nothing.
CREATE FUNCTION voyager.chunk_file_names(chunk bytea) RETURNS text[]
LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE AS $$
from voyager_pl_ext.codec import decode
try:
    files = decode(chunk)
except Exception:
    return []
return [f[0].decode("utf-8", "replace") for f in files]
$$;
COMMENT ON FUNCTION voyager.chunk_file_names(bytea) IS
    'The file names of a release chunk in its order (empty when it does not decode)';
COMMIT;
