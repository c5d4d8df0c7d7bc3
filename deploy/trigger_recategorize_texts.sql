-- Deploy voyager:trigger_recategorize_texts to pg: the marks appended (recategorize_mark)
BEGIN;
-- A statement's new inner names (texts of kinds 2-5) mark their releases
-- dirty (recategorize_mark: appended, never waiting on another writer).
CREATE OR REPLACE FUNCTION voyager.recategorize_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM voyager.recategorize_mark(ARRAY(SELECT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5));
    RETURN NULL;
END $$;
COMMIT;
