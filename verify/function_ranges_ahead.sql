-- Verify voyager:function_ranges_ahead on pg
SELECT has_function_privilege('voyager.ranges_ahead(uuid, integer)', 'execute');
