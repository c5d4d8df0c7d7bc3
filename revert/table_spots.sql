-- Revert voyager:table_spots from pg
BEGIN;
DROP TABLE voyager.spot_reads;
DROP TABLE voyager.spots;
COMMIT;
