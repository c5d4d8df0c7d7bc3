-- Verify voyager:function_search_keys_of on pg
SELECT 1/count(*) FROM pg_proc WHERE proname = 'search_keys_of' AND pronamespace = 'voyager'::regnamespace
   AND prosrc LIKE '%search_category%';
