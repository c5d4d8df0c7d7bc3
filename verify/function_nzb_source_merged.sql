-- Verify voyager:function_nzb_source_merged on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.nzb_source(bigint)'::regprocedure
   AND prosrc LIKE '%merged_into%';
