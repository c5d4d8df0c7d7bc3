-- Verify voyager:data_job_recategorize on pg
SELECT 1 / count(*) FROM voyager.jobs WHERE name = 'recategorize' AND every_setting = 'recategorize_seconds';
