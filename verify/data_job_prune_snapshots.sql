-- Verify voyager:data_job_prune_snapshots on pg
SELECT 1/count(*) FROM voyager.jobs WHERE name = 'prune_snapshots' AND function = 'voyager.prune_snapshots';
