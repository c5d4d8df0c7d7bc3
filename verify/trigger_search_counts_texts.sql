-- Verify voyager:trigger_search_counts_texts on pg
SELECT 'voyager.search_counts_texts()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_search_counts_insert' AND tgrelid = 'voyager.release_texts'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_search_counts_update' AND tgrelid = 'voyager.release_texts'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_search_counts_delete' AND tgrelid = 'voyager.release_texts'::regclass;
