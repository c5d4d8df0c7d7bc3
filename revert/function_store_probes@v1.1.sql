-- Revert voyager:function_store_probes from pg
BEGIN;
DROP FUNCTION voyager.store_probes(text, jsonb);
COMMIT;
