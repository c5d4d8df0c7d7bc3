-- Deploy voyager:function_lane_bounds to pg
-- The priority band a claimant of a lane works: the tail lane the tail
-- planner's ranges whatever the bounds; the history lane the given bounds (the
-- lease_* settings where none is given), never the tail's. lease_group leases
-- within it and lane_idle asks whether anything is left within it.
BEGIN;

CREATE FUNCTION voyager.lane_bounds(
    p_lane text,
    p_min_priority integer DEFAULT NULL,
    p_max_priority integer DEFAULT NULL,
    p_capture_only boolean DEFAULT NULL)
RETURNS TABLE (lane voyager.lane, min_priority integer, max_priority integer, capture_only boolean)
LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_tail    integer := voyager.setting_int('tail_priority');
    v_min     integer;
    v_max     integer;
    v_capture boolean;
BEGIN
    IF p_lane IS NULL OR p_lane NOT IN ('history', 'tail') THEN
        RAISE EXCEPTION 'lane must be history or tail, not %', coalesce(p_lane, 'null') USING ERRCODE = '22023';
    END IF;
    IF p_lane = 'tail' THEN
        v_min := -2147483648; v_max := v_tail; v_capture := false;
    ELSE
        v_min := greatest(coalesce(p_min_priority, voyager.setting_int('lease_min_priority')::integer), v_tail + 1);
        v_max := coalesce(p_max_priority, voyager.setting_int('lease_max_priority')::integer);
        v_capture := coalesce(p_capture_only, voyager.setting_bool('lease_capture_only'));
    END IF;
    IF v_min > v_max THEN
        RAISE EXCEPTION 'empty priority bounds % .. %', v_min, v_max USING ERRCODE = '22023';
    END IF;
    RETURN QUERY SELECT p_lane::voyager.lane, v_min, v_max, v_capture;
END $$;
COMMENT ON FUNCTION voyager.lane_bounds(text, integer, integer, boolean)
    IS 'The lane and priority band (capture-only or not) a claimant of the lane works, from its bounds and the settings';
COMMIT;
