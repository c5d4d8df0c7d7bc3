-- Revert voyager:function_store_named from pg
BEGIN;
DROP FUNCTION voyager.store_named(uuid, voyager.release_in);
COMMIT;
