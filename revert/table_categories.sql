-- Revert voyager:table_categories from pg
BEGIN;
DROP TABLE voyager.categories;
COMMIT;
