-- Revert voyager:table_release_web from pg
BEGIN;
DROP TABLE voyager.release_media_ids;
DROP TABLE voyager.release_judgements;
DROP TABLE voyager.release_passwords;
DROP TABLE voyager.release_grabs;
COMMIT;
