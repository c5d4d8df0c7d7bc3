-- Revert voyager:function_catalog_sizes from pg
BEGIN;
DROP FUNCTION voyager.catalog_sizes();
COMMIT;
