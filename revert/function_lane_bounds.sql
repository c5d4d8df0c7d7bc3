-- Revert voyager:function_lane_bounds from pg
BEGIN;
DROP FUNCTION voyager.lane_bounds(text, integer, integer, boolean);
COMMIT;
