-- Revert voyager:function_store_release_facts from pg
BEGIN;
DROP FUNCTION voyager.store_release_facts(jsonb);
COMMIT;
