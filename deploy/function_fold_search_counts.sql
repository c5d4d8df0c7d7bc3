-- Deploy voyager:function_fold_search_counts to pg
BEGIN;
-- The deltas into their rows (one folder at a time: the others return 0); a
-- word whose count reaches 0 stops being tracked. Then the words searches
-- asked for: counted under the tracking lock alone, tracked from then on.
CREATE FUNCTION voyager.fold_search_counts(p_promotions integer DEFAULT 100) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_folded bigint;
    v_keys text[];
BEGIN
    IF NOT pg_try_advisory_xact_lock(hashtext('voyager.search_counts')) THEN
        RETURN 0;
    END IF;
    WITH gone AS (DELETE FROM voyager.search_count_deltas RETURNING key, delta),
         s AS (SELECT key, sum(delta) AS d, count(*) AS n FROM gone GROUP BY key),
         -- (a word's deltas that outlived its row: it was untracked meanwhile, they go)
         v AS (SELECT s.key, c.releases + s.d AS releases FROM s JOIN voyager.search_counts c USING (key)
               UNION ALL
               SELECT s.key, s.d FROM s WHERE s.key NOT LIKE 'w:%'
                  AND NOT EXISTS (SELECT 1 FROM voyager.search_counts c WHERE c.key = s.key)),
         dropped AS (DELETE FROM voyager.search_counts c USING v WHERE c.key = v.key AND v.releases = 0),
         kept AS (INSERT INTO voyager.search_counts AS c (key, releases)
                  SELECT key, releases FROM v WHERE releases <> 0
                  ON CONFLICT (key) DO UPDATE SET releases = excluded.releases)
    SELECT coalesce(sum(n), 0) INTO v_folded FROM s;

    SELECT array_agg(key) INTO v_keys
      FROM (SELECT key FROM voyager.search_promotions ORDER BY asked_at LIMIT p_promotions) p;
    IF v_keys IS NOT NULL THEN
        -- every store that did not see these words tracked has committed, every later one will see them
        PERFORM voyager.search_tracking_lock(true);
        DELETE FROM voyager.search_count_deltas WHERE key = ANY (v_keys);
        INSERT INTO voyager.search_counts AS c (key, releases)
        SELECT k, n FROM (
            SELECT k, (SELECT count(DISTINCT t.release_id) FROM voyager.release_texts t
                        WHERE voyager.search_terms(t.text, t.posted_at) @> ARRAY[substr(k, 3)]
                          AND NOT EXISTS (SELECT 1 FROM voyager.release_judgements j
                                           WHERE j.release_id = t.release_id AND j.hidden)) AS n
              FROM unnest(v_keys) k) x
         WHERE n > 0
        ON CONFLICT (key) DO UPDATE SET releases = excluded.releases;
        DELETE FROM voyager.search_promotions WHERE key = ANY (v_keys);
    END IF;
    RETURN v_folded;
END $$;
COMMENT ON FUNCTION voyager.fold_search_counts(integer)
    IS 'Folds search_count_deltas into search_counts (one folder at a time), then tracks the words searches asked for; returns the deltas folded';
COMMIT;
