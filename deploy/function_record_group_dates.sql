-- Deploy voyager:function_record_group_dates to pg
BEGIN;
-- When were a group's articles posted? Workers sample a few Date headers per
-- slice of a group (record_group_dates); the curve through the samples, kept
-- monotone, gives every range an estimated posting time (estimate_range_dates);
-- a window of posting time can then be marked for capture (mark_capture).
CREATE FUNCTION voyager.record_group_dates(p_group text, p_samples jsonb) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_group integer;
    v_n integer;
BEGIN
    SELECT id INTO v_group FROM voyager.groups WHERE name = p_group;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no group named %', p_group USING ERRCODE = '22023';
    END IF;
    IF p_samples IS NULL OR jsonb_typeof(p_samples) <> 'array' THEN
        RAISE EXCEPTION 'samples must be a JSON array of {"article", "posted_at"}' USING ERRCODE = '22023';
    END IF;
    IF EXISTS (SELECT 1 FROM jsonb_array_elements(p_samples) e
                WHERE jsonb_typeof(e -> 'article') IS DISTINCT FROM 'number'
                   OR (e ->> 'article')::numeric < 1
                   OR jsonb_typeof(e -> 'posted_at') IS DISTINCT FROM 'string') THEN
        RAISE EXCEPTION 'samples must be {"article": n >= 1, "posted_at": "<timestamp>"}' USING ERRCODE = '22023';
    END IF;
    INSERT INTO voyager.group_dates AS d (group_id, article, posted_at)
    SELECT v_group, (e ->> 'article')::bigint, (e ->> 'posted_at')::timestamptz
      FROM jsonb_array_elements(p_samples) e
        ON CONFLICT (group_id, article) DO UPDATE SET posted_at = excluded.posted_at, sampled_at = now();
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.record_group_dates(text, jsonb) IS 'Records sampled posting dates of a group''s articles';
COMMIT;
