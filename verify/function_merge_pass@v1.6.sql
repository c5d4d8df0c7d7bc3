-- Verify voyager:function_merge_pass on pg
SELECT 'voyager.merge_pass()'::regprocedure;
