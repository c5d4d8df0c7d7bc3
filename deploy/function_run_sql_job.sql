-- Deploy voyager:function_run_sql_job to pg
BEGIN;
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
COMMIT;
