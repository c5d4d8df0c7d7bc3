-- Verify voyager:table_jobs on pg
-- (the claim's lease column is alter_jobs_expires_at's to verify: it renames it)
SELECT name, kind, function, every_setting, timeout, enabled, next_run_at, last_run_at, last_finished_at,
       last_seconds, last_node, last_result, last_error, runs, failures, claim, description
  FROM voyager.jobs WHERE FALSE;
