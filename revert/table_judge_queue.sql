-- Revert voyager:table_judge_queue from pg
BEGIN;
DROP TABLE voyager.judge_queue;
COMMIT;
