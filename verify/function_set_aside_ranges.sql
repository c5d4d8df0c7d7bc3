-- Verify voyager:function_set_aside_ranges on pg
SELECT has_function_privilege('voyager.set_aside_ranges(bigint, bigint)', 'execute');
