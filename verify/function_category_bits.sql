-- Verify voyager:function_category_bits on pg
SELECT 'voyager.category_bits(text, text)'::regprocedure;
