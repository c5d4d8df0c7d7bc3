-- Revert voyager:data_job_par2_lists from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'par2_lists';
DELETE FROM voyager.settings WHERE name IN ('par2_lists_seconds', 'par2_list_keep_hours', 'par2_lists_batch');
COMMIT;
