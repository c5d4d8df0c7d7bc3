-- Verify voyager:function_merge_settle on pg
SELECT 'voyager.merge_settle(bigint[])'::regprocedure;
