-- Revert voyager:function_lane_end from pg
BEGIN;
DROP FUNCTION voyager.lane_end(uuid);
COMMIT;
