-- Verify voyager:function_nzb_from_source on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.nzb(bigint)'::regprocedure
   AND prosrc LIKE '%nzb_source%';
