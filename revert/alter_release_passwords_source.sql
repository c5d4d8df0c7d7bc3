-- Revert voyager:alter_release_passwords_source from pg
BEGIN;
ALTER TABLE voyager.release_passwords DROP COLUMN source;
COMMIT;
