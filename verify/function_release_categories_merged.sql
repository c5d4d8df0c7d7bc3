-- Verify voyager:function_release_categories_merged on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.release_categories(bigint[])'::regprocedure
   AND prosrc LIKE '%merged_into%';
