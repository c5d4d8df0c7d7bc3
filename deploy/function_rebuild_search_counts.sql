-- Deploy voyager:function_rebuild_search_counts to pg
BEGIN;
-- Everything counted again (a TRUNCATE of a counted table, or an operator's
-- repair), the words in search_tracked_min releases or more tracked: no
-- delta may be written meanwhile, so the stores wait for it.
CREATE FUNCTION voyager.rebuild_search_counts() RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    v_keys bigint;
BEGIN
    -- the folder's lock, the tracking lock, the deltas: the order every writer and the fold keep
    PERFORM pg_advisory_xact_lock(hashtext('voyager.search_counts'));
    PERFORM voyager.search_tracking_lock(true);
    LOCK TABLE voyager.search_count_deltas IN EXCLUSIVE MODE;
    DELETE FROM voyager.search_count_deltas;
    DELETE FROM voyager.search_counts;
    DELETE FROM voyager.search_promotions;
    INSERT INTO voyager.search_counts (key, releases)
    SELECT k.key, count(*)
      FROM voyager.search_keys_of(ARRAY(SELECT id FROM voyager.releases UNION SELECT release_id FROM voyager.release_texts)) k
     GROUP BY k.key
    HAVING k.key NOT LIKE 'w:%' OR count(*) >= voyager.setting_int('search_tracked_min');
    GET DIAGNOSTICS v_keys = ROW_COUNT;
    RETURN v_keys;
END $$;
COMMENT ON FUNCTION voyager.rebuild_search_counts() IS 'search_counts counted again from the catalog (the stores wait meanwhile)';
COMMIT;
