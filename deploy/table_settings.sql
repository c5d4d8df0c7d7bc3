-- Deploy voyager:table_settings to pg
BEGIN;
CREATE TABLE voyager.settings (
    name        text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]*$'),
    value       text NOT NULL,
    description text NOT NULL
);
COMMENT ON TABLE voyager.settings IS 'Tunables the SQL logic reads (voyager.setting_int); change with UPDATE';

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
COMMIT;
