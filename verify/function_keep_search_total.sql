-- Verify voyager:function_keep_search_total on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.keep_search_total(bytea, bigint, bigint)'::regprocedure AND l.lanname = 'plpgsql';
