-- Verify voyager:function_category_sets on pg
SELECT 'voyager.category_sets()'::regprocedure;
