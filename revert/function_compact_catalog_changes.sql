-- Revert voyager:function_compact_catalog_changes from pg
BEGIN;
DROP FUNCTION voyager.compact_catalog_changes();
COMMIT;
