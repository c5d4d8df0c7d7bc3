-- Verify voyager:function_search_walk_pays on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.search_walk_pays(bigint, bigint, boolean, boolean, bigint)'::regprocedure AND l.lanname = 'plpgsql';
