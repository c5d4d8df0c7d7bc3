-- Verify voyager:function_drop_par2_lists on pg
SELECT 'voyager.drop_par2_lists()'::regprocedure;
