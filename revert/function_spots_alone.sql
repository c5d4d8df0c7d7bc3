-- Revert voyager:function_spots_alone from pg
BEGIN;
DROP FUNCTION voyager.spots_alone(timestamptz, integer);
COMMIT;
