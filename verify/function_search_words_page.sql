-- Verify voyager:function_search_words_page on pg
SELECT total, release_id, posted_at, promote FROM voyager.search_words_page('harbor', 1, 0, false, NULL) WHERE false;
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.search_words_page(text, integer, integer, boolean, text)'::regprocedure
   AND provolatile = 's';
-- the undated texts probed only when a release has no date
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.search_words_page(text, integer, integer, boolean, text)'::regprocedure
   AND prosrc LIKE '%IF v_undated THEN%';
