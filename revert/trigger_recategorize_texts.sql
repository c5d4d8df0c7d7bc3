-- Revert voyager:trigger_recategorize_texts from pg: the marks under their unique key again
BEGIN;
CREATE OR REPLACE FUNCTION voyager.recategorize_texts() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO voyager.recategorize_queue (release_id)
    SELECT DISTINCT n.release_id FROM new_rows n WHERE n.kind BETWEEN 2 AND 5
     ORDER BY 1
        ON CONFLICT (release_id) DO NOTHING;
    RETURN NULL;
END $$;
COMMIT;
