-- Revert voyager:function_catalog_state from pg
BEGIN;
DROP FUNCTION voyager.catalog_state();
COMMIT;
