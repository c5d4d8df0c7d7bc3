-- Revert voyager:function_store_snapshot from pg
BEGIN;
DROP FUNCTION voyager.store_snapshot(uuid, bigint, bytea);
COMMIT;
