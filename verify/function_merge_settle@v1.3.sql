-- Verify voyager:function_merge_settle on pg
SELECT 'voyager.merge_settle(bigint[])'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.merge_settle(bigint[])'::regprocedure
   AND prosrc LIKE '%own AS MATERIALIZED%';
