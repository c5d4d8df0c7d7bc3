-- Verify voyager:alter_jobs_place_id on pg
SELECT place_id FROM voyager.jobs WHERE false;
