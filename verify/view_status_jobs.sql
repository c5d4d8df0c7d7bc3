-- Verify voyager:view_status_jobs on pg
SELECT name, kind, function, every, enabled, next_run_at, due_in, running, last_run_at, last_seconds,
       last_node, last_ok, last_result, last_error, runs, failures
  FROM voyager.status_jobs WHERE FALSE;
