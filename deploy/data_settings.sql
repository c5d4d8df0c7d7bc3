-- Deploy voyager:data_settings to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('range_articles',     '2000000',    'Articles per planned range (RANGE_ARTICLES)'),
  ('chunk_articles',     '100000',     'Articles per fetched chunk of a range'),
  ('lease_ttl_seconds',  '300',        'A lease whose holder is silent this long is taken over (LEASE_TTL_SECONDS)'),
  ('snapshot_minutes',   '10',         'Workers snapshot a held window this often, right after a stored batch (SNAPSHOT_MINUTES)'),
  ('tail_priority',      '-1',         'Priority of the tail planner''s ranges; the tail lane works ranges at or below it'),
  ('history_priority',   '100',        'Priority of newly planned history ranges (lower is more urgent)'),
  ('lease_min_priority', '0',          'History lane: lowest range priority handed out (LEASE_MIN_PRIORITY)'),
  ('lease_max_priority', '2147483647', 'History lane: highest range priority handed out (LEASE_MAX_PRIORITY)'),
  ('lease_capture_only', 'false',      'History lane: hand out capture ranges only (LEASE_CAPTURE_ONLY)');
INSERT INTO voyager.settings (name, value, description) VALUES
  ('settle_quiet_minutes', '360', 'A complete provisional release whose newest article is this old is settled (settleComplete)')
ON CONFLICT (name) DO NOTHING;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('chunks_tablespace', '', 'Tablespace for new release_chunks partitions (empty: the database default)')
ON CONFLICT (name) DO NOTHING;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('nntp_claim_ttl_seconds', '60',
   'A connection claim not renewed this long expires: a dead process''s connections come back');
INSERT INTO voyager.settings (name, value, description) VALUES
  ('tail_plan_seconds',  '120',  'voyager tick: the tail planner (LIST ACTIVE into plan_groups) runs this often'),
  ('settle_seconds',     '300',  'voyager tick: settle_complete runs this often'),
  ('partitions_seconds', '3600', 'voyager tick: maintain_chunk_partitions runs this often'),
  ('tail_plan_wildmat',  '',
   'The tail planner plans the groups already planned; groups this wildmat accepts are added as they appear (empty: none)')
ON CONFLICT (name) DO NOTHING;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('catalog_max_gb', '1000', 'The catalog''s room on its disk in GiB (CATALOG_MAX_NVME_GB): status_catalog reports against it')
ON CONFLICT (name) DO NOTHING;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('search_counts_seconds', '15', 'How often voyager tick folds search_count_deltas into search_counts'),
  ('search_tracked_min', '1000', 'A word in this many releases has its count kept (search_counts); a rarer one is counted by its search')
ON CONFLICT (name) DO NOTHING;
COMMIT;
