-- Revert voyager:trigger_search_counts_texts from pg
BEGIN;
DROP TRIGGER release_texts_search_counts_insert ON voyager.release_texts;
DROP TRIGGER release_texts_search_counts_update ON voyager.release_texts;
DROP TRIGGER release_texts_search_counts_delete ON voyager.release_texts;
DROP FUNCTION voyager.search_counts_texts();
COMMIT;
