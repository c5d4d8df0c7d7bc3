-- Verify voyager:function_release_group on pg
SELECT 'voyager.release_group(uuid, bytea, bigint)'::regprocedure;
