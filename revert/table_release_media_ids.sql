-- Revert voyager:table_release_media_ids from pg
BEGIN;
DROP TABLE voyager.release_media_ids;
COMMIT;
