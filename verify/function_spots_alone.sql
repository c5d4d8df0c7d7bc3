-- Verify voyager:function_spots_alone on pg
SELECT has_function_privilege('voyager.spots_alone(timestamptz, integer)', 'execute');
