-- Verify voyager:alter_marks_append on pg
SELECT voyager.judge_mark('{}'), voyager.recategorize_mark('{}'), voyager.merge_settle_mark('{}');
SELECT 1/(NOT EXISTS (SELECT FROM pg_constraint WHERE conname = 'judge_queue_pkey'))::integer;
