-- Revert voyager:function_finish_job from pg
-- back to @v1.0's body, the lease in running_until (alter_jobs_expires_at's revert names it so next)
BEGIN;
CREATE OR REPLACE FUNCTION voyager.finish_job(p_name text, p_claim uuid, p_result jsonb, p_error text DEFAULT NULL)
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
COMMIT;
