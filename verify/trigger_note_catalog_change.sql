-- Verify voyager:trigger_note_catalog_change on pg
SELECT 'voyager.note_catalog_change()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'releases_catalog_change' AND tgrelid = 'voyager.releases'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_texts_catalog_change' AND tgrelid = 'voyager.release_texts'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_passwords_catalog_change' AND tgrelid = 'voyager.release_passwords'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_judgements_catalog_change' AND tgrelid = 'voyager.release_judgements'::regclass;
SELECT 1/count(*) FROM pg_trigger WHERE tgname = 'release_media_ids_catalog_change' AND tgrelid = 'voyager.release_media_ids'::regclass;
