-- Revert voyager:function_store_batch from pg
BEGIN;
DROP FUNCTION voyager.store_batch(uuid, bigint, bigint, bigint, bigint, release_in[], pending_in[], count_in[], sample_in[], bytea[]);
COMMIT;
