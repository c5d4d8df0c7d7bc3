-- Revert voyager:type_range_status from pg
BEGIN;
DROP TYPE voyager.range_status;
COMMIT;
