-- Revert voyager:data_job_pending_ladder from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'pending_ladder';
DELETE FROM voyager.settings
 WHERE name IN ('pending_ladder_seconds', 'pending_ladder_batch', 'pending_tries', 'pending_retry_minutes');
COMMIT;
