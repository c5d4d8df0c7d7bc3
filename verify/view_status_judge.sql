-- Verify voyager:view_status_judge on pg
SELECT verdict, releases, last_judged_at, backlog, oldest_mark, waiting, judge_last_run_at, daily_at_id
  FROM voyager.status_judge WHERE false;
