-- Verify voyager:function_wildmat on pg
SELECT 'voyager.wildmat(text, text)'::regprocedure;
