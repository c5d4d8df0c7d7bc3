-- Verify voyager:function_category_of on pg
SELECT 'voyager.category_of(text, text[], text, integer)'::regprocedure;
