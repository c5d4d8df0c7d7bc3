-- Verify voyager:function_lease_group on pg
SELECT has_function_privilege('voyager.lease_group(text, text, integer, integer, boolean)', 'execute');
