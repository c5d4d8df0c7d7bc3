-- Revert voyager:table_search_promotions from pg
BEGIN;
DROP TABLE voyager.search_promotions;
COMMIT;
