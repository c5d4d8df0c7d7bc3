-- Revert voyager:function_lane_backlog from pg
BEGIN;
DROP FUNCTION voyager.lane_backlog(integer, lane, integer, integer, boolean);
COMMIT;
