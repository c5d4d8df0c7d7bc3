-- Deploy voyager:trigger_note_catalog_change to pg
BEGIN;
CREATE FUNCTION voyager.note_catalog_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.catalog_changes DEFAULT VALUES;
    RETURN NULL;
END $$;
COMMENT ON FUNCTION voyager.note_catalog_change() IS 'Statement trigger: one catalog_changes row per writing statement';
CREATE TRIGGER releases_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.releases
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_texts_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_texts
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_passwords_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_passwords
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_judgements_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_judgements
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
CREATE TRIGGER release_media_ids_catalog_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON voyager.release_media_ids
    FOR EACH STATEMENT EXECUTE FUNCTION voyager.note_catalog_change();
COMMIT;
