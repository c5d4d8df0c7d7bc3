-- Verify voyager:data_snapshot_keep_settings on pg
SELECT 1/(count(*) = 4)::integer FROM voyager.settings
 WHERE name IN ('snapshot_keep_last', 'snapshot_keep_every_articles', 'snapshot_keep_mb', 'prune_snapshots_seconds');
