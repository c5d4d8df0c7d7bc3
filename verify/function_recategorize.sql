-- Verify voyager:function_recategorize on pg
SELECT 'voyager.recategorize(integer, bigint, bigint, bigint)'::regprocedure;
