-- Deploy voyager:function_merge_pass to pg: the merges' lock through merges_lock
BEGIN;
-- The merges job: the finders read the facts new in a slice of time after
-- the job's place (sets found, articles probed, releases first seen or
-- settled in it), their proposals are applied (merge_releases), finder by
-- finder: the par2 merge first, then the name pass, the inner merge, the
-- sidecar fold, each passing over what an earlier one merged; and the place
-- moves to the slice's end. Slices of merge_slice_seconds until merge_run_seconds are
-- spent or the place is merge_lag_seconds behind now (a transaction that
-- began earlier may still be writing facts stamped before it). Bounded: the
-- finders read by index what the slice names, never the catalog. First the
-- survivors whose members learnt facts after their merge (merge_settle_queue)
-- are settled again, 1000 a run.
CREATE OR REPLACE FUNCTION voyager.merge_pass()
RETURNS TABLE (slices integer, proposed integer, merged integer, place timestamptz, behind interval)
LANGUAGE plpgsql AS $$
DECLARE
    v_place timestamptz;
    v_to timestamptz;
    v_until timestamptz := now() - make_interval(secs => voyager.setting_int('merge_lag_seconds'));
    v_step interval := make_interval(secs => voyager.setting_int('merge_slice_seconds'));
    v_budget interval := make_interval(secs => voyager.setting_int('merge_run_seconds'));
    v_start timestamptz := clock_timestamp();
    v_out jsonb;
    v_finder text;
    v_slice timestamptz;
    v_last interval := interval '0';
    v_survivors bigint[];
    v_merged bigint[];
    v_via text[];
    v_sets bytea[];
    v_resettle bigint[];
BEGIN
    slices := 0; proposed := 0; merged := 0;
    -- survivors a late fact reached: under the merges lock, their rows locked in id order,
    -- as merge_releases takes them
    IF EXISTS (SELECT FROM voyager.merge_settle_queue) THEN
        PERFORM voyager.merges_lock();
        WITH q AS (
            DELETE FROM voyager.merge_settle_queue s
             WHERE s.survivor_id IN (SELECT q.survivor_id FROM voyager.merge_settle_queue q
                                      ORDER BY q.queued_at LIMIT 1000)
            RETURNING s.survivor_id
        )
        SELECT array_agg(DISTINCT coalesce(r.merged_into, r.id)) INTO v_resettle
          FROM q JOIN voyager.releases r ON r.id = q.survivor_id;
        IF v_resettle IS NOT NULL THEN
            PERFORM 1 FROM voyager.releases r WHERE r.id = ANY (v_resettle) ORDER BY r.id FOR UPDATE;
            PERFORM voyager.merge_settle(v_resettle);
        END IF;
    END IF;
    SELECT j.place INTO v_place FROM voyager.jobs j WHERE j.name = 'merges' FOR UPDATE;
    IF v_place IS NULL THEN               -- the first run starts at the oldest release
        SELECT min(r.first_seen_at) INTO v_place FROM voyager.releases r;
        v_place := coalesce(v_place, v_until);
    END IF;
    -- a slice is begun only while the run's time, the last slice's again included, fits the budget
    WHILE v_place < v_until AND clock_timestamp() - v_start + v_last < v_budget LOOP
        v_slice := clock_timestamp();
        v_to := least(v_place + v_step, v_until);
        -- each finder's proposals applied before the next finder reads: what the par2 merge
        -- joined, the name pass, the inner merge and the sidecar fold see merged and pass over
        FOREACH v_finder IN ARRAY ARRAY['find_par2_merges', 'find_name_merges', 'find_inner_merges',
                                        'find_sidecar_folds'] LOOP
            EXECUTE format('SELECT array_agg(f.survivor_id ORDER BY f.merged_id), array_agg(f.merged_id ORDER BY f.merged_id),
                                   array_agg(f.via ORDER BY f.merged_id), array_agg(f.set_id ORDER BY f.merged_id)
                              FROM voyager.%I($1, $2) f', v_finder)
               INTO v_survivors, v_merged, v_via, v_sets USING v_place, v_to;
            CONTINUE WHEN v_merged IS NULL;
            v_out := voyager.merge_releases(v_survivors, v_merged, v_via, v_sets);
            proposed := proposed + (v_out ->> 'proposed')::integer;
            merged := merged + (v_out ->> 'merged')::integer;
        END LOOP;
        slices := slices + 1;
        v_place := v_to;
        v_last := clock_timestamp() - v_slice;
    END LOOP;
    UPDATE voyager.jobs j SET place = v_place WHERE j.name = 'merges';
    place := v_place;
    behind := greatest(now() - v_place, interval '0');
    RETURN NEXT;
END $$;
COMMENT ON FUNCTION voyager.merge_pass() IS
    'The merges job: the finders over slices after its place, their proposals applied; returns slices, proposed, merged, place, behind';
COMMIT;
