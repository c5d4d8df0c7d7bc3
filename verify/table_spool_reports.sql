-- Verify voyager:table_spool_reports on pg
SELECT node, bytes, files, cap_bytes, reported_at
  FROM voyager.spool_reports WHERE FALSE;
