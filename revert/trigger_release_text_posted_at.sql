-- Revert voyager:trigger_release_text_posted_at from pg
BEGIN;
DROP TRIGGER release_texts_posted_at ON voyager.release_texts;
DROP FUNCTION voyager.release_text_posted_at();
COMMIT;
