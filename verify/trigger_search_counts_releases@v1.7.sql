-- Verify voyager:trigger_search_counts_releases on pg
SELECT 1/count(*) FROM pg_proc WHERE proname = 'search_counts_releases' AND pronamespace = 'voyager'::regnamespace
   AND prosrc LIKE '%search_category%' AND prosrc LIKE '%t.posted_at IS DISTINCT FROM x.posted_at%';
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_insert' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_update' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_search_counts_delete' AND tgrelid = 'voyager.releases'::regclass;
