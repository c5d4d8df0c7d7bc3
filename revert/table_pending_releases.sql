-- Revert voyager:table_pending_releases from pg
BEGIN;
DROP TABLE voyager.pending_releases;
COMMIT;
