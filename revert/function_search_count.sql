-- Revert voyager:function_search_count from pg: back to the SQL function planned at every call
BEGIN;
-- The exact count of a key set (disjoint keys: categories of a search), as
-- this snapshot sees it; null when a word among them is not tracked.
CREATE OR REPLACE FUNCTION voyager.search_count(p_keys text[]) RETURNS bigint
LANGUAGE sql STABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN EXISTS (SELECT 1 FROM unnest(p_keys) k
                              WHERE k LIKE 'w:%' AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = k))
                THEN NULL
                ELSE coalesce((SELECT sum(releases) FROM voyager.search_counts WHERE key = ANY (p_keys)), 0)::bigint
                   + coalesce((SELECT sum(delta) FROM voyager.search_count_deltas WHERE key = ANY (p_keys)), 0)::bigint
           END
$$;
COMMENT ON FUNCTION voyager.search_count(text[])
    IS 'Searchable releases under the given keys (summed), exact for this snapshot; null for a word not tracked';
COMMIT;
