-- Verify voyager:function_search_newest_page on pg
SELECT 1/count(*) FROM pg_proc WHERE proname = 'search_newest_page' AND pronamespace = 'voyager'::regnamespace
   AND prosrc LIKE '%search_category%';
