-- Revert voyager:table_release_merges from pg
BEGIN;
DROP TABLE voyager.release_own_totals;
DROP TABLE voyager.release_merges;
COMMIT;
