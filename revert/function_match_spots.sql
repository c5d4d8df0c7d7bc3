-- Revert voyager:function_match_spots from pg
BEGIN;
DROP FUNCTION voyager.match_spots(text[], timestamptz, integer);
COMMIT;
