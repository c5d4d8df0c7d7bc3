-- Deploy voyager:data_snapshot_keep_settings to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('snapshot_keep_last',           '3',       'prune_snapshots: each lane''s latest snapshots kept (the current one among them)'),
  ('snapshot_keep_every_articles', '2000000', 'prune_snapshots: further back, the latest snapshot in each stretch of this many articles is kept'),
  ('snapshot_keep_mb',             '2048',    'prune_snapshots: a group''s snapshots take at most this many MB; past it the oldest go (never a lane''s current one, nor one an open recovery starts from)'),
  ('prune_snapshots_seconds',      '600',     'voyager tick: snapshots are thinned this often (prune_snapshots job)');
COMMIT;
