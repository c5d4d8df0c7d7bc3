-- Verify voyager:function_store_spots on pg
SELECT has_function_privilege('voyager.store_spots(text, jsonb)', 'execute');
