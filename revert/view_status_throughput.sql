-- Revert voyager:view_status_throughput from pg
BEGIN;
DROP VIEW voyager.status_throughput;
COMMIT;
