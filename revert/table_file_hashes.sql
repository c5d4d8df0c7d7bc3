-- Revert voyager:table_file_hashes from pg
BEGIN;
DROP TABLE voyager.file_hashes;
COMMIT;
