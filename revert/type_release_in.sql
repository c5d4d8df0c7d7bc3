-- Revert voyager:type_release_in from pg
BEGIN;
DROP TYPE voyager.release_in;
COMMIT;
