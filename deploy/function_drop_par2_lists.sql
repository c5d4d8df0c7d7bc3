-- Deploy voyager:function_drop_par2_lists to pg
BEGIN;
-- The par2_lists job: a set's file list is dropped once the set can merge
-- nothing more, the set itself kept: when every release holding it is
-- complete (or its survivor is) or hidden by the judge, or when it was found
-- par2_list_keep_hours before the merges job's place (every probe that could
-- still match it has been read by then). Up to par2_lists_batch sets a run,
-- the oldest first. A survivor keeps the completeness such a set proved.
CREATE FUNCTION voyager.drop_par2_lists()
RETURNS TABLE (sets integer, files integer)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v_place timestamptz := (SELECT j.place FROM voyager.jobs j WHERE j.name = 'merges');
    v_final timestamptz;
    v_batch bigint := voyager.setting_int('par2_lists_batch');
    v_sets bytea[];
    v_files integer;
BEGIN
    IF v_place IS NULL THEN                 -- the merges have not begun: every set may still merge
        sets := 0; files := 0;
        RETURN NEXT;
        RETURN;
    END IF;
    v_final := v_place - make_interval(hours => voyager.setting_int('par2_list_keep_hours')::integer);
    SELECT coalesce(array_agg(s.set_id), '{}') INTO v_sets
      FROM (SELECT s.set_id FROM voyager.par2_sets s
             WHERE s.files_dropped_at IS NULL AND s.found_at < v_place
               AND (s.found_at < v_final
                    OR (EXISTS (SELECT FROM voyager.probe_cache k
                                 JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id
                                WHERE k.facts -> 'par2' ->> 'set_id' = encode(s.set_id, 'hex') AND k.status = 0
                                  AND pc.release_id IS NOT NULL)
                        AND NOT EXISTS (       -- a holder still open: neither complete nor judged
                            SELECT FROM voyager.probe_cache k
                              JOIN voyager.probe_candidates pc ON pc.message_id = k.message_id
                              JOIN voyager.releases r ON r.id = pc.release_id
                              JOIN voyager.releases root ON root.id = coalesce(r.merged_into, r.id)
                              LEFT JOIN voyager.release_judgements j ON j.release_id = r.id AND j.hidden
                                                                    AND j.verdict <> 'merged'
                             WHERE k.facts -> 'par2' ->> 'set_id' = encode(s.set_id, 'hex') AND k.status = 0
                               AND NOT root.complete AND j.release_id IS NULL)))
             ORDER BY s.found_at
             LIMIT v_batch) s;
    DELETE FROM voyager.par2_files f WHERE f.set_id = ANY (v_sets);
    GET DIAGNOSTICS v_files = ROW_COUNT;
    UPDATE voyager.par2_sets s SET files_dropped_at = now() WHERE s.set_id = ANY (v_sets);
    sets := cardinality(v_sets);
    files := v_files;
    RETURN NEXT;
END $$;
COMMENT ON FUNCTION voyager.drop_par2_lists() IS
    'The par2_lists job: file lists of sets that can merge nothing more dropped (every holder complete or judged, or past par2_list_keep_hours); returns sets and files';
COMMIT;
