-- Verify voyager:function_match_spots on pg
SELECT has_function_privilege('voyager.match_spots(text[], timestamptz, integer)', 'execute');
