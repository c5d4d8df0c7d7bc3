-- Verify voyager:function_api_use on pg
-- planned once a session: plpgsql
SELECT 1 / count(*) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
 WHERE p.oid = 'voyager.api_use(text, text, bigint, integer, integer[], pg_lsn[])'::regprocedure AND l.lanname = 'plpgsql';
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.api_use(text, text, bigint, integer, integer[], pg_lsn[])'::regprocedure
   AND prosrc LIKE '%api_key_hash(p_key)%';   -- the key is looked up by its hash
