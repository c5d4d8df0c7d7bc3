-- Verify voyager:function_is_group_set on pg
SELECT 'voyager.is_group_set(text[])'::regprocedure;
