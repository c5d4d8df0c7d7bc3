-- Verify voyager:function_name_key on pg
SELECT 'voyager.name_key(text)'::regprocedure;
