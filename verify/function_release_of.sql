-- Verify voyager:function_release_of on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.release_of_guid(bytea)'::regprocedure AND l.lanname = 'plpgsql';
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.release_of_id(bigint)'::regprocedure AND l.lanname = 'plpgsql';
