-- Verify voyager:table_jobs on pg
SELECT name, kind, function, every_setting, timeout, enabled, next_run_at, last_run_at, last_finished_at,
       last_seconds, last_node, last_result, last_error, runs, failures, claim, running_until, description
  FROM voyager.jobs WHERE FALSE;
