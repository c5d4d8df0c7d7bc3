-- Verify voyager:function_next_range on pg
SELECT 'voyager.next_range(uuid)'::regprocedure;
