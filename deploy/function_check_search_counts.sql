-- Deploy voyager:function_check_search_counts to pg
BEGIN;
-- What a recount would say, against what the counts say (tests, operators):
-- no rows when they agree. Words not tracked have no count to compare.
CREATE FUNCTION voyager.check_search_counts() RETURNS TABLE (key text, counted bigint, recounted bigint)
LANGUAGE sql STABLE AS $$
    WITH recount AS (SELECT k.key, count(*) AS n
                       FROM voyager.search_keys_of(ARRAY(SELECT id FROM voyager.releases
                                                         UNION SELECT release_id FROM voyager.release_texts)) k
                      GROUP BY k.key),
         keys AS (SELECT r.key FROM recount r WHERE r.key NOT LIKE 'w:%'
                  UNION SELECT c.key FROM voyager.search_counts c)
    SELECT keys.key, voyager.search_count(ARRAY[keys.key]), coalesce(recount.n, 0)
      FROM keys LEFT JOIN recount USING (key)
     WHERE voyager.search_count(ARRAY[keys.key]) IS DISTINCT FROM coalesce(recount.n, 0)
$$;
COMMENT ON FUNCTION voyager.check_search_counts() IS 'Keys whose count differs from a recount of the catalog (none when all is well)';
COMMIT;
