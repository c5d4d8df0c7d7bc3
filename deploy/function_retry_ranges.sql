-- Deploy voyager:function_retry_ranges to pg
BEGIN;
-- Frees failed ranges (of one group, or of all): planned again from their resume
-- point, so their lanes are leasable again (a range whose articles were all
-- stored before its lane's snapshot is done). The error stays until the range is
-- leased again. Returns how many were freed.
CREATE FUNCTION voyager.retry_ranges(p_group text DEFAULT NULL)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    v_n integer;
BEGIN
    IF p_group IS NOT NULL AND NOT EXISTS (SELECT 1 FROM voyager.groups WHERE name = p_group) THEN
        RAISE EXCEPTION 'no group named %', p_group USING ERRCODE = '22023';
    END IF;
    UPDATE voyager.ranges r
       SET status = CASE WHEN r.next_article > r.end_article THEN 'done' ELSE 'planned' END::voyager.range_status,
           done_at = CASE WHEN r.next_article > r.end_article THEN now() END
      FROM voyager.groups g
     WHERE g.id = r.group_id AND r.status = 'failed' AND (p_group IS NULL OR g.name = p_group);
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END $$;
COMMENT ON FUNCTION voyager.retry_ranges(text)
    IS 'Failed ranges of a group (or of all) planned again, their lanes leasable again; returns how many';
COMMIT;
