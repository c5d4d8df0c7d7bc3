-- Revert voyager:trigger_search_counts_truncated from pg
BEGIN;
DROP TRIGGER releases_search_counts_truncate ON voyager.releases;
DROP TRIGGER release_texts_search_counts_truncate ON voyager.release_texts;
DROP TRIGGER release_judgements_search_counts_truncate ON voyager.release_judgements;
DROP FUNCTION voyager.search_counts_truncated();
COMMIT;
