-- Deploy voyager:trigger_release_text_posted_at to pg
BEGIN;
-- A text's posting date is its release's: filled in for a writer that leaves
-- it out (store_batch writes it), moved with the release's.
CREATE FUNCTION voyager.release_text_posted_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    SELECT r.posted_at INTO NEW.posted_at FROM voyager.releases r WHERE r.id = NEW.release_id;
    RETURN NEW;
END $$;
CREATE TRIGGER release_texts_posted_at BEFORE INSERT ON voyager.release_texts
    FOR EACH ROW WHEN (NEW.posted_at IS NULL) EXECUTE FUNCTION voyager.release_text_posted_at();
COMMIT;
