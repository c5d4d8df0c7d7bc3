-- Revert voyager:function_pending_name from pg
BEGIN;
DROP FUNCTION voyager.pending_name(jsonb);
COMMIT;
