-- Verify voyager:data_job_pending_ladder on pg
SELECT 1 / count(*) FROM voyager.jobs WHERE name = 'pending_ladder' AND every_setting = 'pending_ladder_seconds';
