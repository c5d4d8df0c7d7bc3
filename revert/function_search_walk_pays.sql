-- Revert voyager:function_search_walk_pays from pg: back to the SQL function planned at every call
-- Which way a search's page is found, once its total is known: walking
-- releases_newest_idx newest first, a probe of the texts per release, reads
-- about need * releases / total releases; collecting the matches reads `total`
-- texts, a probe of the release each. Measured on a million releases the two
-- cost about the same per row (~5 us), the walk a little more. Without an
-- index to find its texts (substrings under three letters alone) a search
-- walks. The catalog's size is the planner's estimate (p_releases stands in
-- for it where a test wants a size of its own).
BEGIN;
CREATE OR REPLACE FUNCTION voyager.search_walk_pays(p_total bigint, p_need bigint, p_text boolean, p_indexed boolean,
                                         p_releases bigint DEFAULT NULL) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT p_text AND p_total > 0
           AND (p_need::float8 * greatest(n.releases, p_total) / p_total * 1.2 < p_total OR NOT p_indexed)
      FROM (SELECT coalesce(p_releases, (SELECT greatest(greatest(reltuples, 0)::bigint, 1) FROM pg_class
                                          WHERE oid = 'voyager.releases'::regclass)) AS releases) n
$$;
COMMENT ON FUNCTION voyager.search_walk_pays(bigint, bigint, boolean, boolean, bigint)
    IS 'Whether a search''s page is walked newest first (else collected from its matches), given its total';
COMMIT;
