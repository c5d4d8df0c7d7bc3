-- Deploy voyager:function_history_caught_up to pg: a failed history range is not caught up
BEGIN;
-- The seam where a group's history meets its tail. The history lane is caught up
-- when no history range is left to hand out, in hand or failed (waiting for a
-- retry); the tail lane has started once it holds or held a window of its own
-- (a lease, a snapshot, a range taken).
CREATE OR REPLACE FUNCTION voyager.history_caught_up(p_group integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
    SELECT NOT EXISTS (SELECT 1 FROM voyager.ranges r
                        WHERE r.group_id = p_group
                          AND ((r.status = 'planned' AND r.priority > voyager.setting_int('tail_priority'))
                               OR (r.status IN ('leased', 'failed') AND r.lane = 'history')))
$$;
COMMENT ON FUNCTION voyager.history_caught_up(integer)
    IS 'No history range of the group is left to hand out, in hand or failed';
COMMIT;
