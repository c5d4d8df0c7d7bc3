-- Verify voyager:data_job_sample_dates on pg
SELECT 1 / count(*) FROM voyager.jobs WHERE name = 'sample_dates' AND every_setting = 'sample_dates_seconds';
