-- Revert voyager:table_release_chunks from pg
BEGIN;
DROP TABLE voyager.release_chunks;
COMMIT;
