-- Deploy voyager:function_wildmat to pg
BEGIN;
CREATE FUNCTION voyager.wildmat(pattern text, name text) RETURNS boolean
LANGUAGE plpython3u IMMUTABLE STRICT PARALLEL SAFE AS $$
from voyager_pl.wildmat import match
return match(pattern, name)
$$;
COMMENT ON FUNCTION voyager.wildmat(text, text) IS 'RFC 3977 wildmat (alt.binaries.*,!*.d): true when the name is accepted';
COMMIT;
