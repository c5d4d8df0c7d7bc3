-- Revert voyager:function_history_caught_up from pg
BEGIN;
DROP FUNCTION voyager.history_caught_up(integer);
COMMIT;
