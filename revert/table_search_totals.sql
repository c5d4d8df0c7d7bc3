-- Revert voyager:table_search_totals from pg
BEGIN;
DROP TABLE voyager.search_totals;
COMMIT;
