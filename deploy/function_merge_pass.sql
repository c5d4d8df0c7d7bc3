-- Deploy voyager:function_merge_pass to pg
BEGIN;
-- The merges job: the finders read the facts new in a slice of time after
-- the job's place (sets found, articles probed, releases first seen or
-- settled in it), their proposals are applied (merge_releases: the par2
-- merge first, then the name pass, the inner merge, the sidecar fold; a
-- release proposed twice goes by that order), and the place moves to the
-- slice's end. Slices of merge_slice_seconds until merge_run_seconds are
-- spent or the place is merge_lag_seconds behind now (a transaction that
-- began earlier may still be writing facts stamped before it). Bounded: the
-- finders read by index what the slice names, never the catalog.
CREATE FUNCTION voyager.merge_pass()
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
BEGIN
    slices := 0; proposed := 0; merged := 0;
    SELECT j.place INTO v_place FROM voyager.jobs j WHERE j.name = 'merges' FOR UPDATE;
    IF v_place IS NULL THEN               -- the first run starts at the oldest release
        SELECT min(r.first_seen_at) INTO v_place FROM voyager.releases r;
        v_place := coalesce(v_place, v_until);
    END IF;
    WHILE v_place < v_until AND clock_timestamp() - v_start < v_budget LOOP
        v_to := least(v_place + v_step, v_until);
        WITH found AS (
            SELECT f.*, 0 AS pref FROM voyager.find_par2_merges(v_place, v_to) f
            UNION ALL SELECT f.*, 1 FROM voyager.find_name_merges(v_place, v_to) f
            UNION ALL SELECT f.*, 2 FROM voyager.find_inner_merges(v_place, v_to) f
            UNION ALL SELECT f.*, 3 FROM voyager.find_sidecar_folds(v_place, v_to) f
        ), chosen AS (
            SELECT DISTINCT ON (f.merged_id) f.* FROM found f ORDER BY f.merged_id, f.pref
        )
        SELECT voyager.merge_releases(coalesce(array_agg(c.survivor_id ORDER BY c.pref, c.merged_id), '{}'),
                                      coalesce(array_agg(c.merged_id ORDER BY c.pref, c.merged_id), '{}'),
                                      coalesce(array_agg(c.via ORDER BY c.pref, c.merged_id), '{}'),
                                      coalesce(array_agg(c.set_id ORDER BY c.pref, c.merged_id), '{}'))
          INTO v_out FROM chosen c;
        proposed := proposed + (v_out ->> 'proposed')::integer;
        merged := merged + (v_out ->> 'merged')::integer;
        slices := slices + 1;
        v_place := v_to;
    END LOOP;
    UPDATE voyager.jobs j SET place = v_place WHERE j.name = 'merges';
    place := v_place;
    behind := greatest(now() - v_place, interval '0');
    RETURN NEXT;
END $$;
COMMENT ON FUNCTION voyager.merge_pass() IS
    'The merges job: the finders over slices after its place, their proposals applied; returns slices, proposed, merged, place, behind';
COMMIT;
