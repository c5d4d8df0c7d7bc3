-- Deploy voyager:function_jobs to pg
-- voyager tick's calls: claim a due job, run an SQL job, record how it went.
-- A claim moves next_run_at a period ahead at once and gives the run a token
-- and a lease (the job's timeout): no other tick claims the job until the next
-- period, nor while the run's lease lasts, so a run never overlaps itself;
-- a tick that dies mid-run leaves a lease that simply expires.
BEGIN;
CREATE FUNCTION voyager.claim_due_job(p_node text, p_python text[] DEFAULT '{}', p_skip text[] DEFAULT '{}')
RETURNS TABLE (name text, kind text, function text, claim uuid, timeout interval)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
    IF p_node IS NULL OR p_node = '' THEN
        RAISE EXCEPTION 'a claim needs the tick''s node name' USING ERRCODE = '22023';
    END IF;
    RETURN QUERY
    WITH due AS (
        SELECT j.name FROM voyager.jobs j
         WHERE j.enabled AND j.next_run_at <= now()
           AND (j.running_until IS NULL OR j.running_until < now())
           AND (j.kind = 'sql' OR j.name = ANY (coalesce(p_python, '{}')))   -- python jobs only where handled
           AND NOT j.name = ANY (coalesce(p_skip, '{}'))
         ORDER BY j.next_run_at, j.name
         LIMIT 1
           FOR UPDATE SKIP LOCKED
    )
    UPDATE voyager.jobs j
       SET next_run_at = now() + make_interval(secs => voyager.setting_int(j.every_setting)),
           last_run_at = now(), last_node = p_node, runs = j.runs + 1,
           claim = gen_random_uuid(), running_until = now() + j.timeout
      FROM due
     WHERE j.name = due.name
    RETURNING j.name, j.kind, j.function, j.claim, j.timeout;
END $$;
COMMENT ON FUNCTION voyager.claim_due_job(text, text[], text[])
    IS 'Claims one due job (SKIP LOCKED): next_run_at a period ahead, a token and a lease; python jobs only of p_python, none of p_skip';

CREATE FUNCTION voyager.run_sql_job(p_name text) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
    v_job voyager.jobs;
    v_result jsonb;
BEGIN
    SELECT * INTO v_job FROM voyager.jobs WHERE name = p_name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no job named %', p_name USING ERRCODE = '22023';
    END IF;
    IF v_job.kind <> 'sql' THEN
        RAISE EXCEPTION 'job % is a python job: voyager tick runs it', p_name USING ERRCODE = '22023';
    END IF;
    -- the function's rows as JSON: one value (a count) as itself, several as an array
    EXECUTE format('SELECT jsonb_agg(to_jsonb(r)) FROM %I.%I() AS r',
                   split_part(v_job.function, '.', 1), split_part(v_job.function, '.', 2))
       INTO v_result;
    RETURN CASE WHEN jsonb_array_length(coalesce(v_result, '[]')) = 1 THEN v_result -> 0
                ELSE coalesce(v_result, '[]') END;
END $$;
COMMENT ON FUNCTION voyager.run_sql_job(text) IS 'Runs an sql job''s function (no arguments); its result as JSON';

CREATE FUNCTION voyager.finish_job(p_name text, p_claim uuid, p_result jsonb, p_error text DEFAULT NULL)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE voyager.jobs j
       SET last_finished_at = clock_timestamp(),
           last_seconds = round(extract(epoch FROM clock_timestamp() - j.last_run_at)::numeric, 3),
           last_result = CASE WHEN p_error IS NULL THEN p_result ELSE j.last_result END,
           last_error = p_error,
           failures = j.failures + (p_error IS NOT NULL)::integer,
           claim = NULL, running_until = NULL
     WHERE j.name = p_name AND j.claim = p_claim;
    RETURN FOUND;   -- false: the lease ran out and another tick has the job now
END $$;
COMMENT ON FUNCTION voyager.finish_job(text, uuid, jsonb, text)
    IS 'Records a claimed run''s result or error (retried next period) and ends its lease; false if the claim was lost';

INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('tail_plan', 'python', NULL, 'tail_plan_seconds', '5 minutes',
   'The tail planner: LIST ACTIVE of the news server into plan_groups (the planned groups, and new ones tail_plan_wildmat accepts)'),
  ('settle', 'sql', 'voyager.settle_complete', 'settle_seconds', '30 minutes',
   'settle_complete: complete provisional releases quiet for settle_quiet_minutes are settled'),
  ('chunk_partitions', 'sql', 'voyager.maintain_chunk_partitions', 'partitions_seconds', '30 minutes',
   'maintain_chunk_partitions: a release_chunks partition for every month seen and the next');
COMMIT;
