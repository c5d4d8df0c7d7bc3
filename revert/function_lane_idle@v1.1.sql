-- Revert voyager:function_lane_idle from pg
BEGIN;
DROP FUNCTION voyager.lane_idle(text, integer, integer, boolean);
COMMIT;
