-- Verify voyager:trigger_search_counts_truncated on pg
SELECT 'voyager.search_counts_truncated()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_truncate' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_search_counts_truncate' AND tgrelid = 'voyager.release_texts'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_judgements_search_counts_truncate' AND tgrelid = 'voyager.release_judgements'::regclass;
