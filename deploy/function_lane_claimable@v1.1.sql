-- Deploy voyager:function_lane_claimable to pg: not while the lane has a failed range
BEGIN;
-- Whether a lane of a group may be claimed now by a claimant with these bounds:
--  * free with work in the bounds, or held by a holder silent for the TTL (with
--    or without a range in hand: a holder killed after its last range's last
--    batch left its lease end unwritten; the new holder restores the snapshot,
--    redoes what came after it and writes the lease end);
--  * for the tail lane, not while the group's history lane, caught up and held
--    by a live holder, is writing the lease end whose window the tail's first
--    lease is to continue (lease_group hands it over once it is released);
--  * not while the lane has a failed range: its window stands before it, and the
--    later ranges wait for it (voyager.retry_ranges frees it).
CREATE OR REPLACE FUNCTION voyager.lane_claimable(gl voyager.group_leases, p_min integer, p_max integer,
                                       p_capture boolean, p_ttl interval) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT CASE
             WHEN gl.token IS NOT NULL THEN gl.heartbeat_at < now() - p_ttl
             ELSE voyager.lane_backlog(gl.group_id, gl.lane, p_min, p_max, p_capture) > 0
                  AND NOT (gl.lane = 'tail'
                           AND EXISTS (SELECT 1 FROM voyager.group_leases h
                                        WHERE h.group_id = gl.group_id AND h.lane = 'history'
                                          AND h.token IS NOT NULL AND h.heartbeat_at >= now() - p_ttl)
                           AND NOT voyager.tail_started(gl.group_id)
                           AND voyager.history_caught_up(gl.group_id))
                  AND NOT EXISTS (SELECT 1 FROM voyager.ranges f
                                   WHERE f.group_id = gl.group_id AND f.lane = gl.lane AND f.status = 'failed')
           END
$$;
COMMENT ON FUNCTION voyager.lane_claimable(voyager.group_leases, integer, integer, boolean, interval)
    IS 'A lane a claimant may take: free with work in its bounds and no failed range, or held by a silent holder';
COMMIT;
