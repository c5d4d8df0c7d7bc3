-- Revert voyager:function_store_spots from pg
BEGIN;
DROP FUNCTION voyager.store_spots(text, jsonb);
COMMIT;
