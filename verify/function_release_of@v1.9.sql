-- Verify voyager:function_release_of on pg
SELECT 'voyager.release_of_guid(bytea)'::regprocedure, 'voyager.release_of_id(bigint)'::regprocedure;
