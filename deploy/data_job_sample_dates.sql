-- Deploy voyager:data_job_sample_dates to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('sample_dates_seconds', '3600', 'voyager tick: posting dates are sampled this often (sample_dates job)'),
  ('sample_dates_groups',  '20',   'Groups whose posting dates one sample_dates run samples (never sampled, then the longest ago)');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('sample_dates', 'python', NULL, 'sample_dates_seconds', '30 minutes',
   'Posting dates: a 32-article XOVER every 500 M articles of a group (16 to 1,000) into record_group_dates, then estimate_range_dates');
COMMIT;
