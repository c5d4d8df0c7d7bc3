-- Verify voyager:function_add_user on pg
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.add_user(text, text)'::regprocedure
   AND prosrc LIKE '%api_key_hash(v_key)%';
