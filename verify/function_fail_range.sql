-- Verify voyager:function_fail_range on pg
SELECT 'voyager.fail_range(uuid, bigint, text)'::regprocedure;
