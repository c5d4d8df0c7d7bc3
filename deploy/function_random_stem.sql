-- Deploy voyager:function_random_stem to pg
BEGIN;
-- A stem that names nothing, as the window judges one: 16 or more hex digits,
-- or a token of 24 or more letters and digits with both in it.
CREATE FUNCTION voyager.random_stem(p_stem text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT p_stem ~ '^[0-9A-Fa-f]{16,}$'
       OR (p_stem ~ '^[0-9A-Za-z]{24,}$' AND p_stem ~ '[0-9]' AND p_stem ~ '[A-Za-z]')
$$;
COMMENT ON FUNCTION voyager.random_stem(text) IS
    'Whether a stem names nothing: 16+ hex digits, or 24+ letters and digits with both';
COMMIT;
