-- Revert voyager:trigger_search_counts_judgements from pg
BEGIN;
DROP TRIGGER release_judgements_search_counts_insert ON voyager.release_judgements;
DROP TRIGGER release_judgements_search_counts_update ON voyager.release_judgements;
DROP TRIGGER release_judgements_search_counts_delete ON voyager.release_judgements;
DROP FUNCTION voyager.search_counts_judgements();
COMMIT;
