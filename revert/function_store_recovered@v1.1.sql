-- Revert voyager:function_store_recovered from pg
BEGIN;
DROP FUNCTION voyager.store_recovered(uuid, bigint, voyager.release_in[], voyager.pending_in[], text[], jsonb);
COMMIT;
