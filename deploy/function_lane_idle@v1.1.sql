-- Deploy voyager:function_lane_idle to pg
-- Whether a lane is idle for a claimant with these bounds: no range left that
-- lease_group could hand out (none planned in its band, none leased to the
-- lane) and no lease of the lane held (a live holder gives its group back
-- soon; a killed one's is taken over after lease_ttl_seconds, its lease end
-- maybe still unwritten). A worker run --until-idle stops when it is.
BEGIN;

CREATE FUNCTION voyager.lane_idle(
    p_lane text,
    p_min_priority integer DEFAULT NULL,
    p_max_priority integer DEFAULT NULL,
    p_capture_only boolean DEFAULT NULL)
RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (SELECT 1 FROM voyager.lane_bounds(p_lane, p_min_priority, p_max_priority, p_capture_only) b
                         JOIN voyager.ranges r
                           ON (r.status = 'planned' AND r.priority BETWEEN b.min_priority AND b.max_priority
                               AND (NOT b.capture_only OR r.capture))
                           OR (r.status = 'leased' AND r.lane = b.lane)
                         JOIN voyager.groups g ON g.id = r.group_id
                        WHERE g.active)
       AND NOT EXISTS (SELECT 1 FROM voyager.group_leases gl JOIN voyager.groups g ON g.id = gl.group_id
                        WHERE g.active AND gl.lane = p_lane::voyager.lane AND gl.token IS NOT NULL)
$$;
COMMENT ON FUNCTION voyager.lane_idle(text, integer, integer, boolean)
    IS 'No range of the lane is left for a claimant with these bounds and no lease of the lane is held';
COMMIT;
