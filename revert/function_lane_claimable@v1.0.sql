-- Revert voyager:function_lane_claimable from pg
BEGIN;
DROP FUNCTION voyager.lane_claimable(group_leases, integer, integer, boolean, interval);
COMMIT;
