-- Deploy voyager:data_job_spots_inspect to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('spots_inspect_seconds', '120', 'voyager tick: the newest uninspected spots'' NZBs read and matched this often (spots_inspect job)'),
  ('spots_inspect_batch', '200', 'the spot inspector: spots one pass reads the NZB of, newest first'),
  ('spots_nzb_articles', '64', 'the spot inspector: articles of a spot''s NZB read at most (more: unreadable)'),
  ('spots_nzb_segments', '100000', 'the spot inspector: segments a spot''s NZB may list (more: unreadable)'),
  ('spot_matches_seconds', '300', 'voyager tick: unmatched spots tried again (hourly each), links applied, day-old ones standing alone (spot_matches job)');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('spots_inspect', 'python', NULL, 'spots_inspect_seconds', '10 minutes',
   'The spot inspector: the newest uninspected spots'' NZBs read from alt.binaries.ftd and matched to their releases (store_spot_nzb)'),
  ('spot_matches', 'sql', 'voyager.settle_spots', 'spot_matches_seconds', '10 minutes',
   'settle_spots: unmatched spots tried again, moved pending releases'' links applied, spots unmatched a day standing alone');
-- the inspector reads alt.binaries.ftd beside the spotter's free.pt: a connection each
UPDATE voyager.nntp_shares SET max_connections = 2 WHERE role = 'spots' AND max_connections < 2;
COMMIT;
