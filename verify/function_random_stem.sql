-- Verify voyager:function_random_stem on pg
SELECT 'voyager.random_stem(text)'::regprocedure;
