-- Verify voyager:function_store_batch on pg
SELECT 'voyager.store_batch(uuid, bigint, bigint, bigint, bigint, release_in[], pending_in[], count_in[], sample_in[], bytea[])'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.store_batch(uuid, bigint, bigint, bigint, bigint, release_in[], pending_in[], count_in[], sample_in[], bytea[])'::regprocedure
   AND prosrc LIKE '%readable%';
