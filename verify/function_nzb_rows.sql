-- Verify voyager:function_nzb_rows on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.nzb(bigint)'::regprocedure
   AND prosrc LIKE '%s.chunk_no%';
SELECT 1/(voyager.nzb(NULL) IS NULL)::int;
