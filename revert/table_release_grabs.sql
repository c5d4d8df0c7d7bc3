-- Revert voyager:table_release_grabs from pg
BEGIN;
DROP TABLE voyager.release_grabs;
COMMIT;
