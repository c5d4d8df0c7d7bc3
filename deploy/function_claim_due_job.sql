-- Deploy voyager:function_claim_due_job to pg
BEGIN;
-- voyager tick's calls: claim a due job, run an SQL job, record how it went.
-- A claim moves next_run_at a period ahead at once and gives the run a token
-- and a lease (the job's timeout): no other tick claims the job until the next
-- period, nor while the run's lease lasts, so a run never overlaps itself;
-- a tick that dies mid-run leaves a lease that simply expires.
CREATE OR REPLACE FUNCTION voyager.claim_due_job(p_node text, p_python text[] DEFAULT '{}', p_skip text[] DEFAULT '{}')
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
           AND (j.expires_at IS NULL OR j.expires_at < now())
           AND (j.kind = 'sql' OR j.name = ANY (coalesce(p_python, '{}')))   -- python jobs only where handled
           AND NOT j.name = ANY (coalesce(p_skip, '{}'))
         ORDER BY j.next_run_at, j.name
         LIMIT 1
           FOR UPDATE SKIP LOCKED
    )
    UPDATE voyager.jobs j
       SET next_run_at = now() + make_interval(secs => voyager.setting_int(j.every_setting)),
           last_run_at = now(), last_node = p_node, runs = j.runs + 1,
           claim = gen_random_uuid(), expires_at = now() + j.timeout
      FROM due
     WHERE j.name = due.name
    RETURNING j.name, j.kind, j.function, j.claim, j.timeout;
END $$;
COMMENT ON FUNCTION voyager.claim_due_job(text, text[], text[])
    IS 'Claims one due job (SKIP LOCKED): next_run_at a period ahead, a token and a lease; python jobs only of p_python, none of p_skip';
COMMIT;
