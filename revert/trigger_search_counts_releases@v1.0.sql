-- Revert voyager:trigger_search_counts_releases from pg
BEGIN;
DROP TRIGGER releases_search_counts_insert ON voyager.releases;
DROP TRIGGER releases_search_counts_update ON voyager.releases;
DROP TRIGGER releases_search_counts_delete ON voyager.releases;
DROP FUNCTION voyager.search_counts_releases();
COMMIT;
