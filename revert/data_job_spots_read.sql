-- Revert voyager:data_job_spots_read from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'spots_read';
DELETE FROM voyager.settings WHERE name = 'spots_read_seconds';
COMMIT;
