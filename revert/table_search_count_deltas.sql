-- Revert voyager:table_search_count_deltas from pg
BEGIN;
DROP TABLE voyager.search_count_deltas;
COMMIT;
