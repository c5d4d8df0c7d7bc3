-- Verify voyager:function_nzb_password on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.nzb(bigint)'::regprocedure
   AND prosrc LIKE '%release_passwords%';
