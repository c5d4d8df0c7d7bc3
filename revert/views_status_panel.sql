-- Revert voyager:views_status_panel from pg
BEGIN;
DROP VIEW voyager.status_jobs;
DROP VIEW voyager.status_phase2;
DROP VIEW voyager.status_held;
DROP VIEW voyager.status_tail;
DROP VIEW voyager.status_spool;
DROP VIEW voyager.status_throughput;
DROP VIEW voyager.status_bands;
DROP VIEW voyager.status_catalog;
DROP FUNCTION voyager.estimated_rows(regclass, bigint);
DELETE FROM voyager.settings WHERE name = 'catalog_max_gb';
COMMIT;
