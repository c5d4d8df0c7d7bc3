-- Deploy voyager:function_fail_range to pg
BEGIN;
-- A batch the database refused (for any reason but a lost lease) or a chunk that
-- could not be fetched: the range is marked failed with the error and the lane
-- goes back with its snapshot as it stands (what the lane did after it is planned
-- again, the window that did it is gone). lane_claimable leases the lane no more
-- while it has a failed range, so the carried window never skips it: the later
-- ranges wait; voyager.retry_ranges frees it. VY001 when the lease is lost.
CREATE FUNCTION voyager.fail_range(p_token uuid, p_range bigint, p_error text)
RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    PERFORM 1 FROM voyager.ranges r
     WHERE r.id = p_range AND r.group_id = v.group_id AND r.lane = v.lane FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'range % is not one the lease''s lane took', coalesce(p_range::text, 'null')
            USING ERRCODE = '22023';
    END IF;
    PERFORM voyager.replan_since_snapshot(v.group_id, v.lane);
    UPDATE voyager.ranges
       SET status = 'failed', error = left(coalesce(nullif(p_error, ''), 'failed without a message'), 2000)
     WHERE id = p_range;
    UPDATE voyager.group_leases
       SET token = NULL, holder = NULL, released_at = now(), range_id = NULL
     WHERE group_id = v.group_id AND lane = v.lane;
    RETURN true;
END $$;
COMMENT ON FUNCTION voyager.fail_range(uuid, bigint, text)
    IS 'Marks the lease''s range failed with the error and gives the lane back with its snapshot; the lane waits for retry_ranges';
COMMIT;
