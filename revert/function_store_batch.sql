-- Revert voyager:function_store_batch from pg
BEGIN;
DROP FUNCTION voyager.store_batch(uuid, bigint, bigint, bigint, bigint, voyager.release_in[],
    voyager.pending_in[], voyager.count_in[], voyager.sample_in[], bytea[]);
COMMIT;
