-- Revert voyager:function_judge_dirty from pg: the marks under their unique key again
BEGIN;
-- The judge job: the dirty marks in batches of judge_batch, taken SKIP LOCKED
-- (another run's marks are its own), judged (judge_releases) and taken, batch
-- after batch while judge_run_seconds are not spent. Marks come ON CONFLICT
-- DO NOTHING (a writer never waits on the judge): a fact committed while its
-- mark is being judged may wait for the daily pass.
CREATE OR REPLACE FUNCTION voyager.judge_dirty() RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_until timestamptz := clock_timestamp() + make_interval(secs => voyager.setting_int('judge_run_seconds'));
    v_batch integer := voyager.setting_int('judge_batch');
    v_marks bigint[];
    v_one jsonb;
    v_batches integer := 0;
    v_judged bigint := 0;
    v_hidden bigint := 0;
    v_changed bigint := 0;
    v_taken bigint := 0;
BEGIN
    LOOP
        SELECT coalesce(array_agg(q.release_id), '{}') INTO v_marks
          FROM (SELECT q.release_id FROM voyager.judge_queue q ORDER BY q.release_id
                 LIMIT v_batch FOR UPDATE SKIP LOCKED) q;
        EXIT WHEN cardinality(v_marks) = 0;
        v_one := voyager.judge_releases(v_marks, now());
        DELETE FROM voyager.judge_queue q WHERE q.release_id = ANY (v_marks);
        v_batches := v_batches + 1;
        v_judged := v_judged + (v_one ->> 'judged')::bigint;
        v_hidden := v_hidden + (v_one ->> 'hidden')::bigint;
        v_changed := v_changed + (v_one ->> 'changed')::bigint;
        v_taken := v_taken + (v_one ->> 'taken_back')::bigint;
        EXIT WHEN cardinality(v_marks) < v_batch OR clock_timestamp() >= v_until;
    END LOOP;
    RETURN jsonb_build_object('batches', v_batches, 'judged', v_judged, 'hidden', v_hidden, 'changed', v_changed,
                              'taken_back', v_taken,
                              'left', (SELECT count(*) FROM voyager.judge_queue));
END $$;
COMMENT ON FUNCTION voyager.judge_dirty() IS
    'The judge job: dirty marks in bounded batches (SKIP LOCKED) judged and taken within judge_run_seconds; returns the counts and the marks left';
COMMIT;
