-- Deploy voyager:data_job_recategorize to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('recategorize_seconds', '30',   'voyager tick: releases that learnt an inner name are recategorized this often (recategorize job)'),
  ('recategorize_batch',   '5000', 'Dirty marks one recategorize run takes');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('recategorize', 'sql', 'voyager.recategorize_queued', 'recategorize_seconds', '10 minutes',
   'recategorize_queued: releases that learnt an inner name get their category computed again, a bounded batch a run');
COMMIT;
