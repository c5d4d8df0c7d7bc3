-- Deploy voyager:function_recovery_ranges to pg
BEGIN;
-- The ranges a recovery lease replays, in article order: whether it stores into
-- each (stale), and whether the range is where the group's data ends for now
-- (no range after it done or leased: a fixed corpus's end, where the lane's
-- window was finished as it stood).
CREATE FUNCTION voyager.recovery_ranges(p_token uuid)
RETURNS TABLE (range_id bigint, start_article bigint, end_article bigint, stale boolean, group_end boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
DECLARE
    v voyager.group_leases;
    x voyager.recoveries;
BEGIN
    v := voyager.lease_of(p_token);
    SELECT * INTO x FROM voyager.recoveries r WHERE r.token = p_token AND r.done_at IS NULL;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no recovery runs under lease %', p_token USING ERRCODE = '22023';
    END IF;
    RETURN QUERY
    SELECT r.id, r.start_article, r.end_article, r.id = ANY (x.stale),
           NOT EXISTS (SELECT 1 FROM voyager.ranges a WHERE a.group_id = r.group_id
                          AND a.start_article > r.end_article AND a.status IN ('done', 'leased'))
      FROM voyager.ranges r WHERE r.id = ANY (x.ranges)
     ORDER BY r.start_article;
END $$;
COMMENT ON FUNCTION voyager.recovery_ranges(uuid)
    IS 'The ranges a recovery lease replays in article order, which it stores into, and where the group''s data ends';
COMMIT;
