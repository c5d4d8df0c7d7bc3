-- Verify voyager:trigger_search_counts_releases on pg
SELECT 'voyager.search_counts_releases()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_insert' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_update' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_delete' AND tgrelid = 'voyager.releases'::regclass;
