-- Revert voyager:table_release_passwords from pg
BEGIN;
DROP TABLE voyager.release_passwords;
COMMIT;
