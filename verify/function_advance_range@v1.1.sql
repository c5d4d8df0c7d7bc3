-- Verify voyager:function_advance_range on pg
SELECT 'voyager.advance_range(uuid, bigint, bigint, bigint, bigint)'::regprocedure;
