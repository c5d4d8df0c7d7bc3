-- Deploy voyager:data_job_merges to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('merges_seconds',      '120', 'voyager tick: the finders run over what is new and their merges are applied this often (merges job)'),
  ('merge_slice_seconds', '60',  'merges: the slice of time the finders read at once (a minute of probe results)'),
  ('merge_run_seconds',   '8',   'merges: a run stops taking slices after this many seconds'),
  ('merge_lag_seconds',   '300', 'merges: the place stays this far behind now, for facts whose transactions are still open');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('merges', 'sql', 'voyager.merge_pass', 'merges_seconds', '10 minutes',
   'merge_pass: the par2 merge, the name pass, the inner merge and the sidecar fold over what is new since the job''s place');
COMMIT;
