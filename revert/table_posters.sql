-- Revert voyager:table_posters from pg
BEGIN;
DROP TABLE voyager.posters;
COMMIT;
