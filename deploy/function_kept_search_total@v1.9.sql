-- Deploy voyager:function_kept_search_total to pg
-- A search's total another of the web's processes counted at this catalog
-- state, read in a call of its own (a search's statements write nothing).
BEGIN;
CREATE FUNCTION voyager.kept_search_total(p_query_hash bytea, p_state bigint) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT total FROM voyager.search_totals WHERE query_hash = p_query_hash AND state = p_state
$$;
COMMENT ON FUNCTION voyager.kept_search_total(bytea, bigint)
    IS 'A search''s shared total counted at this catalog state, or null';
COMMIT;
