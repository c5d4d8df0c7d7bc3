-- Revert voyager:table_search_counts from pg
BEGIN;
DROP TABLE voyager.search_counts;
COMMIT;
