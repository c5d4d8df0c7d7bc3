-- Verify voyager:function_lane_claimable on pg
SELECT 'voyager.lane_claimable(group_leases, integer, integer, boolean)'::regprocedure;
