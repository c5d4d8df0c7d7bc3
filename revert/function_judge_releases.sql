-- Revert voyager:function_judge_releases from pg
BEGIN;
DROP FUNCTION voyager.judge_releases(bigint[], timestamptz);
COMMIT;
