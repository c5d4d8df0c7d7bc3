-- Revert voyager:data_job_judge from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name IN ('judge', 'judge_daily');
DELETE FROM voyager.settings WHERE name IN ('judge_seconds', 'judge_batch', 'judge_run_seconds', 'judge_daily_seconds',
                                            'judge_daily_batch', 'judge_daily_run_seconds');
COMMIT;
