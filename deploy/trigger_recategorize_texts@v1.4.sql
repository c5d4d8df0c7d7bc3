-- Deploy voyager:trigger_recategorize_texts to pg
BEGIN;
-- A statement's new inner names (texts of kinds 2-5) mark their releases
-- dirty, once a release: a mark is a row of recategorize_queue.
CREATE FUNCTION voyager.recategorize_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.recategorize_queue (release_id)
    SELECT DISTINCT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;
CREATE TRIGGER release_texts_recategorize_insert AFTER INSERT ON voyager.release_texts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.recategorize_texts();
CREATE TRIGGER release_texts_recategorize_update AFTER UPDATE ON voyager.release_texts
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION voyager.recategorize_texts();
COMMIT;
