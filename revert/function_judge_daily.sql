-- Revert voyager:function_judge_daily from pg
BEGIN;
DROP FUNCTION voyager.judge_daily();
COMMIT;
