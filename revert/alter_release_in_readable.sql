-- Revert voyager:alter_release_in_readable from pg
BEGIN;
ALTER TYPE voyager.release_in DROP ATTRIBUTE readable;
COMMIT;
