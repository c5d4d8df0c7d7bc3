-- Revert voyager:table_catalog_changes from pg
BEGIN;
DROP TABLE voyager.catalog_changes;
COMMIT;
