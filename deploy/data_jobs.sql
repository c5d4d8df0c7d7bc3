-- Deploy voyager:data_jobs to pg
BEGIN;
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('tail_plan', 'python', NULL, 'tail_plan_seconds', '5 minutes',
   'The tail planner: LIST ACTIVE of the news server into plan_groups (the planned groups, and new ones tail_plan_wildmat accepts)'),
  ('settle', 'sql', 'voyager.settle_complete', 'settle_seconds', '30 minutes',
   'settle_complete: complete provisional releases quiet for settle_quiet_minutes are settled'),
  ('chunk_partitions', 'sql', 'voyager.maintain_chunk_partitions', 'partitions_seconds', '30 minutes',
   'maintain_chunk_partitions: a release_chunks partition for every month seen and the next');
INSERT INTO voyager.jobs (name, kind, function, every_setting, timeout, description) VALUES
  ('search_counts', 'sql', 'voyager.fold_search_counts', 'search_counts_seconds', '10 minutes',
   'fold_search_counts: the search count deltas the stores appended, folded into search_counts');
COMMIT;
