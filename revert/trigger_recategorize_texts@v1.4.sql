-- Revert voyager:trigger_recategorize_texts from pg
BEGIN;
DROP TRIGGER release_texts_recategorize_insert ON voyager.release_texts;
DROP TRIGGER release_texts_recategorize_update ON voyager.release_texts;
DROP FUNCTION voyager.recategorize_texts();
COMMIT;
