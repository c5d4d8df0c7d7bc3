-- Verify voyager:function_kept_search_total on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.kept_search_total(bytea, bigint)'::regprocedure AND l.lanname = 'plpgsql';
