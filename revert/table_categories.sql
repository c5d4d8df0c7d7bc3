-- Revert voyager:table_categories from pg
BEGIN;
ALTER TABLE voyager.releases DROP CONSTRAINT releases_category_fkey;
DROP TABLE voyager.categories;
COMMIT;
