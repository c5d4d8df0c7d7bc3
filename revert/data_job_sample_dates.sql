-- Revert voyager:data_job_sample_dates from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'sample_dates';
DELETE FROM voyager.settings WHERE name IN ('sample_dates_seconds', 'sample_dates_groups');
COMMIT;
