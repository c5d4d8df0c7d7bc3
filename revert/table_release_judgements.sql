-- Revert voyager:table_release_judgements from pg
BEGIN;
DROP TABLE voyager.release_judgements;
COMMIT;
