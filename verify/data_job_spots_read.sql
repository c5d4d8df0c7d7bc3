-- Verify voyager:data_job_spots_read on pg
SELECT 1 / count(*) FROM voyager.jobs WHERE name = 'spots_read';
