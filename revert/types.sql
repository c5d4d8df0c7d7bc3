-- Revert voyager:types from pg
BEGIN;
DROP TYPE voyager.lane;
DROP TYPE voyager.range_status;
COMMIT;
