-- Verify voyager:function_nzb on pg
-- voyager.nzb() writes from nzb_source, and a release that is not there has none
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.nzb(bigint)'::regprocedure
   AND prosrc LIKE '%voyager.nzb_source(%';
SELECT 1/(voyager.nzb(NULL) IS NULL)::int;
