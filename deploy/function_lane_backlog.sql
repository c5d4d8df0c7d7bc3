-- Deploy voyager:function_lane_backlog to pg
BEGIN;
-- What a lane of a group offers a claimant with these bounds, in articles: the
-- planned ranges it may take, plus what a silent holder of the lane left leased.
CREATE FUNCTION voyager.lane_backlog(p_group integer, p_lane voyager.lane, p_min integer, p_max integer,
                                     p_capture boolean) RETURNS bigint
LANGUAGE sql STABLE AS $$
    SELECT coalesce((SELECT sum(r.end_article - r.next_article + 1)
                       FROM voyager.ranges r
                      WHERE r.group_id = p_group AND r.status = 'planned'
                        AND r.priority BETWEEN p_min AND p_max
                        AND (NOT p_capture OR r.capture)), 0)
         + coalesce((SELECT sum(r.end_article - r.next_article + 1)
                       FROM voyager.ranges r
                      WHERE r.group_id = p_group AND r.lane = p_lane AND r.status = 'leased'), 0)
$$;
COMMENT ON FUNCTION voyager.lane_backlog(integer, voyager.lane, integer, integer, boolean)
    IS 'Articles a lane of a group offers a claimant within the bounds (planned, or left leased by a silent holder)';
COMMIT;
