-- Revert voyager:table_releases from pg
BEGIN;
DROP TABLE voyager.releases;
COMMIT;
