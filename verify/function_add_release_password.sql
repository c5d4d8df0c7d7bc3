-- Verify voyager:function_add_release_password on pg
SELECT 'voyager.add_release_password(bigint, text, text)'::regprocedure;
