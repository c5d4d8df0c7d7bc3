-- Revert voyager:function_pending_ladder from pg
BEGIN;
DROP FUNCTION voyager.pending_ladder(integer);
COMMIT;
