-- Verify voyager:function_lane_end on pg
SELECT 'voyager.lane_end(uuid)'::regprocedure;
