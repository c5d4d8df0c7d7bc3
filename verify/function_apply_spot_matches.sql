-- Verify voyager:function_apply_spot_matches on pg
SELECT has_function_privilege('voyager.apply_spot_matches(timestamptz)', 'execute');
