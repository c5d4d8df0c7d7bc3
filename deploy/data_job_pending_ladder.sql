-- Deploy voyager:data_job_pending_ladder to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('pending_ladder_seconds', '60',   'voyager tick: probed pending releases climb the ladder this often (pending_ladder job)'),
  ('pending_ladder_batch',   '5000', 'Pending releases one pending_ladder run looks at'),
  ('pending_tries',          '3',    'Looks at a pending release''s probes before it is discarded or exhausted'),
  ('pending_retry_minutes',  '60',   'A pending release''s targets that read nothing are probed again after this long');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('pending_ladder', 'sql', 'voyager.pending_ladder', 'pending_ladder_seconds', '10 minutes',
   'pending_ladder: probed pending releases named, tried again, discarded or exhausted, a bounded batch a run');
COMMIT;
