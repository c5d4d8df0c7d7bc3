-- Deploy voyager:data_job_judge to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('judge_seconds',           '120',   'voyager tick: the dirty releases are judged this often (judge job)'),
  ('judge_batch',             '5000',  'judge: dirty marks judged at once'),
  ('judge_run_seconds',       '60',    'judge: a run takes no new batch after this many seconds'),
  ('judge_daily_seconds',     '86400', 'voyager tick: every catalog release is judged again this often (judge_daily job)'),
  ('judge_daily_batch',       '50000', 'judge_daily: releases judged at once, by id'),
  ('judge_daily_run_seconds', '300',   'judge_daily: a run takes no new batch after this many seconds (the pass goes on next tick)');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('judge', 'sql', 'voyager.judge_dirty', 'judge_seconds', '10 minutes',
   'judge_dirty: the releases marked dirty (probe results, hashes, passwords, texts, merges, names) judged, bounded batches'),
  ('judge_daily', 'sql', 'voyager.judge_daily', 'judge_daily_seconds', '10 minutes',
   'judge_daily: every catalog release judged again by id from the job''s place (unusable a day after settling)');
COMMIT;
