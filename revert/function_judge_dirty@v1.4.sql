-- Revert voyager:function_judge_dirty from pg
BEGIN;
DROP FUNCTION voyager.judge_dirty();
COMMIT;
