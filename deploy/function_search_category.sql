-- Deploy voyager:function_search_category to pg
-- The category a search shows, finds and counts a release under: its own, or
-- Other > Misc (8010) while it has none. (Inlined where it is used: a
-- constant and a coalesce, no call.)
BEGIN;
CREATE FUNCTION voyager.search_category(p_category integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT coalesce(p_category, 8010)
$$;
COMMENT ON FUNCTION voyager.search_category(integer)
    IS 'The category a search shows a release under: its own, else 8010 (Other > Misc)';
COMMIT;
