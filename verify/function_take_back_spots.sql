-- Verify voyager:function_take_back_spots on pg
SELECT has_function_privilege('voyager.take_back_spots(text[])', 'execute');
