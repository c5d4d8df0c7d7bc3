-- Revert voyager:data_job_prune_snapshots from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'prune_snapshots';
COMMIT;
