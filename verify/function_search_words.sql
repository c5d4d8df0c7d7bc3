-- Verify voyager:function_search_words on pg
SELECT 'voyager.search_words(text)'::regprocedure;
SELECT 1 / count(*) FROM pg_proc WHERE oid = 'voyager.search_words(text)'::regprocedure
   AND prosrc LIKE '%octet_length(p_text) < 64%';   -- a short text is not cut
