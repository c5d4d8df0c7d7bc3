-- Verify voyager:function_add_user on pg
SELECT 'voyager.add_user(text, text)'::regprocedure;
