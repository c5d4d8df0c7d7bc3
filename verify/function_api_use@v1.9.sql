-- Verify voyager:function_api_use on pg
-- the key is looked up by its hash
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.api_use(text, text, bigint)'::regprocedure
   AND prosrc LIKE '%api_key_hash(p_key)%';
