-- Deploy voyager:function_kept_search_total to pg: PL/pgSQL, its plan kept by the session
-- A search's total another of the web's processes counted at this catalog
-- state, read in a call of its own (a search's statements write nothing).
-- PL/pgSQL: a SQL function with a FROM is planned again at every call.
BEGIN;
CREATE OR REPLACE FUNCTION voyager.kept_search_total(p_query_hash bytea, p_state bigint) RETURNS bigint
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_total bigint;
BEGIN
    SELECT s.total INTO v_total FROM voyager.search_totals s WHERE s.query_hash = p_query_hash AND s.state = p_state;
    RETURN v_total;
END $$;
COMMENT ON FUNCTION voyager.kept_search_total(bytea, bigint)
    IS 'A search''s shared total counted at this catalog state, or null';
COMMIT;
