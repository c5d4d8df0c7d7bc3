-- Verify voyager:function_keep_search_total on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.keep_search_total(bytea, bigint, bigint)'::regprocedure;
