-- Revert voyager:type_sample_in from pg
BEGIN;
DROP TYPE voyager.sample_in;
COMMIT;
