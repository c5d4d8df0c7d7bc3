-- Revert voyager:trigger_spots_disposed from pg
BEGIN;
DROP TRIGGER spots_disposed ON voyager.spots;
DROP FUNCTION voyager.spots_disposed();
COMMIT;
