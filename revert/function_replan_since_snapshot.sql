-- Revert voyager:function_replan_since_snapshot from pg
BEGIN;
DROP FUNCTION voyager.replan_since_snapshot(integer, lane);
COMMIT;
