-- Deploy voyager:function_judge_releases to pg
BEGIN;
-- The judge's rules applied: the releases given (a merged-away one stands
-- for its survivor) judged by the current rule set's judge section
-- (judge_verdicts); a match gets or keeps its verdict (hidden, the rule set's
-- version, what matched), a judge's verdict whose rule no longer matches is
-- taken back (deleted: the release is shown again), and a merged row is
-- never touched. A verdict's detail alone changing (more holders of a start)
-- rewrites nothing. Returns {judged, hidden, changed, taken_back}: releases
-- judged, those now with a verdict, verdicts given or changed, taken back.
CREATE FUNCTION voyager.judge_releases(p_ids bigint[], p_now timestamptz DEFAULT now())
RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_version integer;
    v_rules jsonb;
    v_roots bigint[];
    v_out jsonb;
BEGIN
    SELECT rs.version, coalesce(rs.rules -> 'judge', (SELECT o.rules -> 'judge' FROM voyager.rule_sets o WHERE o.version = 1))
      INTO v_version, v_rules
      FROM voyager.rule_set() rs;
    SELECT coalesce(array_agg(DISTINCT coalesce(r.merged_into, r.id)), '{}') INTO v_roots
      FROM voyager.releases r WHERE r.id = ANY (p_ids);
    WITH v AS MATERIALIZED (
        SELECT * FROM voyager.judge_verdicts(v_roots, v_rules, p_now)
    ), put AS (
        INSERT INTO voyager.release_judgements AS j (release_id, hidden, verdict, judged_at, rule_version, detail)
        SELECT v.release_id, true, v.verdict, p_now, v_version, v.detail FROM v ORDER BY v.release_id
            ON CONFLICT (release_id) DO UPDATE
           SET hidden = true, verdict = excluded.verdict, judged_at = excluded.judged_at,
               rule_version = excluded.rule_version, detail = excluded.detail
         WHERE j.verdict <> 'merged'
           AND (j.verdict, j.hidden, j.rule_version) IS DISTINCT FROM (excluded.verdict, true, excluded.rule_version)
        RETURNING 1
    ), gone AS (
        DELETE FROM voyager.release_judgements j
         WHERE j.release_id = ANY (v_roots) AND j.verdict IN ('dead', 'fake', 'repeated', 'locked', 'unusable')
           AND NOT EXISTS (SELECT FROM v WHERE v.release_id = j.release_id)
        RETURNING 1
    )
    SELECT jsonb_build_object('judged', cardinality(v_roots), 'hidden', (SELECT count(*) FROM v),
                              'changed', (SELECT count(*) FROM put), 'taken_back', (SELECT count(*) FROM gone))
      INTO v_out;
    RETURN v_out;
END $$;
COMMENT ON FUNCTION voyager.judge_releases(bigint[], timestamptz) IS
    'The current rule set''s judge over releases (their survivors): verdicts given, kept or taken back; returns judged, hidden, changed, taken_back';
COMMIT;
