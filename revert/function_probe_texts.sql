-- Revert voyager:function_probe_texts from pg
BEGIN;
DROP FUNCTION voyager.probe_texts(jsonb);
COMMIT;
