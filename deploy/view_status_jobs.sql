-- Deploy voyager:view_status_jobs to pg
BEGIN;
CREATE VIEW voyager.status_jobs AS
SELECT j.name, j.kind, j.function,
       make_interval(secs => voyager.setting_int(j.every_setting)) AS every,
       j.enabled, j.next_run_at,
       greatest(date_trunc('second', j.next_run_at - now()), interval '0') AS due_in,
       coalesce(j.running_until >= now(), false) AS running,
       j.last_run_at, j.last_seconds, j.last_node,
       j.last_error IS NULL AS last_ok,
       j.last_result, j.last_error, j.runs, j.failures
  FROM voyager.jobs j
 ORDER BY j.name;
COMMENT ON VIEW voyager.status_jobs IS 'voyager tick''s jobs: period, due time, running, the last run''s result or error';
COMMIT;
