-- Verify voyager:function_catalog_state on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.catalog_state()'::regprocedure AND l.lanname = 'plpgsql';
