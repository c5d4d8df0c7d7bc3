-- Revert voyager:table_spool_reports from pg
BEGIN;
DROP FUNCTION voyager.report_spool(text, bigint, integer, bigint);
DROP TABLE voyager.spool_reports;
COMMIT;
