-- Verify voyager:function_snapshot on pg
SELECT 'voyager.snapshot(uuid)'::regprocedure;
