-- Verify voyager:function_store_snapshot on pg
SELECT 'voyager.store_snapshot(uuid, bigint, bytea)'::regprocedure;
