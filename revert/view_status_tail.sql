-- Revert voyager:view_status_tail from pg
BEGIN;
DROP VIEW voyager.status_tail;
COMMIT;
