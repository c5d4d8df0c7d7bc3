-- Deploy voyager:function_name_key to pg
BEGIN;
-- A file name as the name pass compares it: without its folder, its case or
-- its punctuation ("Some.Movie.2020.mkv" and "some movie (2020).MKV" are one).
CREATE FUNCTION voyager.name_key(p_name text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT lower(regexp_replace(regexp_replace(p_name, '^.*[/\\]', ''), '[^[:alnum:]]+', '', 'g'))
$$;
COMMENT ON FUNCTION voyager.name_key(text) IS
    'A file name without folder, case or punctuation, as the name pass compares names';
COMMIT;
