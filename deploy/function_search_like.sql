-- Deploy voyager:function_search_like to pg
-- An ILIKE pattern finding a string anywhere, its own wildcards taken as they are.
BEGIN;
CREATE FUNCTION voyager.search_like(p_text text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT '%' || replace(replace(replace(p_text, '\', '\\'), '%', '\%'), '_', '\_') || '%'
$$;
COMMENT ON FUNCTION voyager.search_like(text)
    IS 'An ILIKE pattern finding p_text anywhere (its %, _ and \ escaped)';
COMMIT;
