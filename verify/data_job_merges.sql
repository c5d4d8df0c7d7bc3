-- Verify voyager:data_job_merges on pg
SELECT 1/count(*) FROM voyager.jobs WHERE name = 'merges';
