-- Verify voyager:function_search_word_key on pg
-- one expression the planner inlines (no FROM)
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.search_word_key(text, boolean)'::regprocedure
   AND prosrc NOT LIKE '%FROM%';
