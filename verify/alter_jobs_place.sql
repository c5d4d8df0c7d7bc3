-- Verify voyager:alter_jobs_place on pg
SELECT place FROM voyager.jobs WHERE false;
