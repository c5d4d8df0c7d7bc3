-- Revert voyager:trigger_note_catalog_change from pg
BEGIN;
DROP TRIGGER releases_catalog_change ON voyager.releases;
DROP TRIGGER release_texts_catalog_change ON voyager.release_texts;
DROP TRIGGER release_passwords_catalog_change ON voyager.release_passwords;
DROP TRIGGER release_judgements_catalog_change ON voyager.release_judgements;
DROP TRIGGER release_media_ids_catalog_change ON voyager.release_media_ids;
DROP FUNCTION voyager.note_catalog_change();
COMMIT;
