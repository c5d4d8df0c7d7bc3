-- Verify voyager:data_job_judge on pg
SELECT 1 / (count(*) - 1) FROM voyager.jobs WHERE name IN ('judge', 'judge_daily');
