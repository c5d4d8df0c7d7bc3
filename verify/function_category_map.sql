-- Verify voyager:function_category_map on pg
SELECT 'voyager.category_map(text)'::regprocedure;
