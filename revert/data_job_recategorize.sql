-- Revert voyager:data_job_recategorize from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'recategorize';
DELETE FROM voyager.settings WHERE name IN ('recategorize_seconds', 'recategorize_batch');
COMMIT;
