-- Verify voyager:function_sign_in on pg
SELECT 'voyager.sign_in(text, text, text)'::regprocedure;
