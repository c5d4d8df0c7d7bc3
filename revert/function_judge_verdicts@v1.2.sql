-- Revert voyager:function_judge_verdicts from pg
BEGIN;
DROP FUNCTION voyager.judge_verdicts(bigint[], jsonb, timestamptz);
COMMIT;
