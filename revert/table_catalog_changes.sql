-- Revert voyager:table_catalog_changes from pg
BEGIN;
DROP TRIGGER release_media_ids_catalog_change ON voyager.release_media_ids;
DROP TRIGGER release_judgements_catalog_change ON voyager.release_judgements;
DROP TRIGGER release_passwords_catalog_change ON voyager.release_passwords;
DROP TRIGGER release_texts_catalog_change ON voyager.release_texts;
DROP TRIGGER releases_catalog_change ON voyager.releases;
DROP FUNCTION voyager.compact_catalog_changes();
DROP FUNCTION voyager.catalog_state();
DROP FUNCTION voyager.note_catalog_change();
DROP TABLE voyager.catalog_changes;
COMMIT;
