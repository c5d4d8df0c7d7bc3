-- Verify voyager:trigger_search_counts_judgements on pg
SELECT 'voyager.search_counts_judgements()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_judgements_search_counts_insert' AND tgrelid = 'voyager.release_judgements'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_judgements_search_counts_update' AND tgrelid = 'voyager.release_judgements'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_judgements_search_counts_delete' AND tgrelid = 'voyager.release_judgements'::regclass;
