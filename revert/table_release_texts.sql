-- Revert voyager:table_release_texts from pg
BEGIN;
DROP TABLE voyager.release_texts;
COMMIT;
