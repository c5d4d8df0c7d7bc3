-- Deploy voyager:function_search_newest_page to pg
-- search_newest_page reads a category's key and the uncategorised's category from search_category_key.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_newest_page(p_cats integer[], p_limit integer, p_offset integer)
RETURNS TABLE (total bigint, release_id bigint, posted_at timestamptz)
LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
DECLARE
    v_total bigint := voyager.search_count(CASE WHEN p_cats IS NULL THEN '{*}'::text[]
                                                ELSE ARRAY(SELECT voyager.search_category_key(c) FROM unnest(p_cats) c) END);
BEGIN
    RETURN QUERY
    SELECT v_total, r.id, r.posted_at FROM voyager.releases r
     WHERE (p_cats IS NULL OR voyager.search_category(r.category) = ANY (p_cats))
       AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j WHERE j.release_id = r.id AND j.hidden)
     ORDER BY r.posted_at DESC, r.id DESC LIMIT greatest(p_limit, 0) OFFSET greatest(p_offset, 0);
    IF NOT FOUND THEN
        RETURN QUERY SELECT v_total, NULL::bigint, NULL::timestamptz;
    END IF;
END $$;
COMMENT ON FUNCTION voyager.search_newest_page(integer[], integer, integer)
    IS 'A categories-only search''s total (search_count) and page, newest first';
ALTER FUNCTION voyager.search_newest_page(integer[], integer, integer) ROWS 100;
COMMIT;
