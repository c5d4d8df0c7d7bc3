-- Revert voyager:table_spool_reports from pg
BEGIN;
DROP TABLE voyager.spool_reports;
COMMIT;
