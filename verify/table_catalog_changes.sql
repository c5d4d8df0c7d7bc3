-- Verify voyager:table_catalog_changes on pg
SELECT id, weight FROM voyager.catalog_changes WHERE FALSE;
SELECT voyager.catalog_state();
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_catalog_change' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_catalog_change';
