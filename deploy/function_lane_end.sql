-- Deploy voyager:function_lane_end to pg
BEGIN;
-- What the end of a lease with nothing left to hand out means for its window:
-- 'provisional' when a continuation will come (the tail, whose planner adds
-- more; a history with ranges left outside the bounds; a caught-up history
-- whose window the tail's first lease is to continue), so what is open is
-- written provisionally; 'final' when none will: the history lane is caught up
-- and the tail lane already runs a window of its own from the seam, so the
-- releases open at the seam end there, as the first of two halves. A tail
-- claimant in the middle of taking the lane (its row locked) counts as started.
CREATE FUNCTION voyager.lane_end(p_token uuid) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE v voyager.group_leases;
BEGIN
    v := voyager.lease_of(p_token);
    IF v.lane = 'tail' OR NOT voyager.history_caught_up(v.group_id) THEN
        RETURN 'provisional';
    END IF;
    PERFORM 1 FROM voyager.group_leases gl WHERE gl.group_id = v.group_id AND gl.lane = 'tail'
        FOR UPDATE SKIP LOCKED;
    IF NOT FOUND OR voyager.tail_started(v.group_id) THEN
        RETURN 'final';
    END IF;
    RETURN 'provisional';
END $$;
COMMENT ON FUNCTION voyager.lane_end(uuid)
    IS 'provisional: a continuation will come to the lease''s window; final: none will (a history at a started tail''s seam)';
COMMIT;
