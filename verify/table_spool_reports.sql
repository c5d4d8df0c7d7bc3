-- Verify voyager:table_spool_reports on pg
SELECT node, bytes, files, cap_bytes, reported_at FROM voyager.spool_reports WHERE FALSE;
SELECT has_function_privilege('voyager.report_spool(text, bigint, integer, bigint)', 'execute');
