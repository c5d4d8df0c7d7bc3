-- Deploy voyager:data_job_par2_lists to pg
BEGIN;
INSERT INTO voyager.settings (name, value, description) VALUES
  ('par2_lists_seconds',    '3600',  'voyager tick: set file lists that can merge nothing more are dropped this often (par2_lists job)'),
  ('par2_list_keep_hours',  '168',   'par2_lists: a set found this long before the merges job''s place merges nothing more'),
  ('par2_lists_batch',      '10000', 'par2_lists: sets whose file lists one run drops at most');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('par2_lists', 'sql', 'voyager.drop_par2_lists', 'par2_lists_seconds', '10 minutes',
   'drop_par2_lists: the file lists of par2 sets that can merge nothing more dropped (the sets kept)');
COMMIT;
