-- Revert voyager:data_job_merges from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name = 'merges';
DELETE FROM voyager.settings WHERE name IN ('merges_seconds', 'merge_slice_seconds', 'merge_run_seconds', 'merge_lag_seconds');
COMMIT;
