-- Deploy voyager:function_search_category_key to pg
-- The search_counts key of a release's category (search_category's): the one
-- place a category's key is spelled.
BEGIN;
CREATE FUNCTION voyager.search_category_key(p_category integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT 'c:' || voyager.search_category(p_category)
$$;
COMMENT ON FUNCTION voyager.search_category_key(integer)
    IS 'The search_counts key of a release''s category (c:<category>)';
COMMIT;
