-- Verify voyager:function_leases on pg
SELECT has_function_privilege('voyager.lease_of(uuid)', 'execute'),
       has_function_privilege('voyager.replan_since_snapshot(integer, voyager.lane)', 'execute'),
       has_function_privilege('voyager.lease_group(text, text, integer, integer, boolean)', 'execute'),
       has_function_privilege('voyager.next_range(uuid)', 'execute'),
       has_function_privilege('voyager.advance_range(uuid, bigint, bigint, bigint, bigint)', 'execute'),
       has_function_privilege('voyager.heartbeat(uuid)', 'execute'),
       has_function_privilege('voyager.store_snapshot(uuid, bigint, bytea)', 'execute'),
       has_function_privilege('voyager.snapshot(uuid)', 'execute'),
       has_function_privilege('voyager.release_group(uuid, bytea, bigint)', 'execute');
