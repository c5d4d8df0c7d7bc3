-- Revert voyager:type_lane from pg
BEGIN;
DROP TYPE voyager.lane;
COMMIT;
