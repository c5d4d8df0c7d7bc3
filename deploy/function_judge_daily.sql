-- Deploy voyager:function_judge_daily to pg
BEGIN;
-- The judge's daily pass: every catalog release judged once a day, by id in
-- batches of judge_daily_batch from the job's place (place: when the pass
-- began, place_id: the last id judged), so what time alone changes is judged
-- (unusable a day after settling) and what a mark missed is caught. A run
-- stops after judge_daily_run_seconds; a pass not finished makes the job due
-- again at once, a finished one clears the place (the next pass starts at
-- the first id, a period after this run's claim). A batch reads by release:
-- the ids' own rows through their indexes, never a table whole.
CREATE FUNCTION voyager.judge_daily() RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_until timestamptz := clock_timestamp() + make_interval(secs => voyager.setting_int('judge_daily_run_seconds'));
    v_batch integer := voyager.setting_int('judge_daily_batch');
    v_place timestamptz;
    v_at bigint;
    v_ids bigint[];
    v_one jsonb;
    v_done boolean := false;
    v_batches integer := 0;
    v_judged bigint := 0;
    v_hidden bigint := 0;
    v_changed bigint := 0;
    v_taken bigint := 0;
BEGIN
    SELECT j.place, j.place_id INTO v_place, v_at FROM voyager.jobs j WHERE j.name = 'judge_daily';
    IF v_place IS NULL THEN
        v_place := now();
        v_at := 0;
    END IF;
    LOOP
        SELECT coalesce(array_agg(r.id ORDER BY r.id), '{}') INTO v_ids
          FROM (SELECT r.id FROM voyager.releases r WHERE r.id > v_at AND r.merged_into IS NULL
                 ORDER BY r.id LIMIT v_batch) r;
        IF cardinality(v_ids) = 0 THEN
            v_done := true;
            EXIT;
        END IF;
        v_one := voyager.judge_releases(v_ids, now());
        v_at := v_ids[cardinality(v_ids)];
        v_batches := v_batches + 1;
        v_judged := v_judged + (v_one ->> 'judged')::bigint;
        v_hidden := v_hidden + (v_one ->> 'hidden')::bigint;
        v_changed := v_changed + (v_one ->> 'changed')::bigint;
        v_taken := v_taken + (v_one ->> 'taken_back')::bigint;
        IF cardinality(v_ids) < v_batch THEN
            v_done := true;
            EXIT;
        END IF;
        EXIT WHEN clock_timestamp() >= v_until;
    END LOOP;
    UPDATE voyager.jobs j
       SET place = CASE WHEN v_done THEN NULL ELSE v_place END,
           place_id = CASE WHEN v_done THEN NULL ELSE v_at END,
           next_run_at = CASE WHEN v_done THEN j.next_run_at ELSE now() END
     WHERE j.name = 'judge_daily';
    RETURN jsonb_build_object('batches', v_batches, 'judged', v_judged, 'hidden', v_hidden, 'changed', v_changed,
                              'taken_back', v_taken, 'pass_began', v_place, 'at_id', v_at, 'done', v_done);
END $$;
COMMENT ON FUNCTION voyager.judge_daily() IS
    'The judge''s daily pass: catalog releases by id in bounded batches from the job''s place, judged; returns the counts, where it is and whether the pass is done';
COMMIT;
