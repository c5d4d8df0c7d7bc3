-- Verify voyager:function_lane_bounds on pg
SELECT has_function_privilege('voyager.lane_bounds(text, integer, integer, boolean)', 'execute');
