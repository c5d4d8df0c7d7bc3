-- Verify voyager:function_set_group_active on pg
SELECT 'voyager.set_group_active(text, boolean)'::regprocedure;
