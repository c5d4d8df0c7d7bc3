-- Revert voyager:type_count_in from pg
BEGIN;
DROP TYPE voyager.count_in;
COMMIT;
