-- Verify voyager:function_lane_idle on pg
SELECT has_function_privilege('voyager.lane_idle(text, integer, integer, boolean)', 'execute');
