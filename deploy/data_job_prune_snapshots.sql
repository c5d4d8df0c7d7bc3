-- Deploy voyager:data_job_prune_snapshots to pg
BEGIN;
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('prune_snapshots', 'sql', 'voyager.prune_snapshots', 'prune_snapshots_seconds', '10 minutes',
   'prune_snapshots: each lane''s kept snapshots thinned (snapshot_keep_last, snapshot_keep_every_articles, snapshot_keep_mb)');
COMMIT;
