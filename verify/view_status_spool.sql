-- Verify voyager:view_status_spool on pg
SELECT node, bytes, files, cap_bytes, used_pct, reported_at, age, stale
  FROM voyager.status_spool WHERE FALSE;
