-- Revert voyager:function_store_spot_nzb from pg
BEGIN;
DROP FUNCTION voyager.store_spot_nzb(text, jsonb, bytea, timestamptz);
COMMIT;
