-- Verify voyager:view_status_merges on pg
SELECT via, merged, survivors, last_merged_at, place, behind, last_run_at, last_result, last_error
  FROM voyager.status_merges WHERE false;
