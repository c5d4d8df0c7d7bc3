-- Revert voyager:table_snapshots from pg
BEGIN;
DROP TABLE voyager.snapshots;
COMMIT;
