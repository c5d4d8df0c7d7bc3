-- Verify voyager:function_set_group_active on pg
SELECT has_function_privilege('voyager.set_group_active(text, boolean)', 'execute');
