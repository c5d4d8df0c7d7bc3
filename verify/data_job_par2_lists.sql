-- Verify voyager:data_job_par2_lists on pg
SELECT 1 / count(*) FROM voyager.jobs WHERE name = 'par2_lists';
