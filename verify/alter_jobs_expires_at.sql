-- Verify voyager:alter_jobs_expires_at on pg
SELECT claim, expires_at FROM voyager.jobs WHERE FALSE;
