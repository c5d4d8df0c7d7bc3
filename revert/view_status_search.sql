-- Revert voyager:view_status_search from pg
BEGIN;
DROP VIEW voyager.status_search;
COMMIT;
