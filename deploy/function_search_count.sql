-- Deploy voyager:function_search_count to pg: PL/pgSQL, its plan kept by the session
BEGIN;
-- The exact count of a key set (disjoint keys: categories of a search), as
-- this snapshot sees it; null when a word among them is not tracked.
-- PL/pgSQL: a SQL function with sub-selects is planned again at every call
-- (a search's), PL/pgSQL plans its statement once a session.
CREATE OR REPLACE FUNCTION voyager.search_count(p_keys text[]) RETURNS bigint
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
    RETURN CASE WHEN EXISTS (SELECT 1 FROM unnest(p_keys) k
                              WHERE k LIKE 'w:%' AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = k))
                THEN NULL
                ELSE coalesce((SELECT sum(c.releases) FROM voyager.search_counts c WHERE c.key = ANY (p_keys)), 0)::bigint
                   + coalesce((SELECT sum(d.delta) FROM voyager.search_count_deltas d WHERE d.key = ANY (p_keys)), 0)::bigint
           END;
END $$;
COMMENT ON FUNCTION voyager.search_count(text[])
    IS 'Searchable releases under the given keys (summed), exact for this snapshot; null for a word not tracked';
COMMIT;
