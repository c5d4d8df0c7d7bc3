-- Verify voyager:function_lane_backlog on pg
SELECT 'voyager.lane_backlog(integer, lane, integer, integer, boolean)'::regprocedure;
