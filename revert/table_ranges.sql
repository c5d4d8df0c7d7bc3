-- Revert voyager:table_ranges from pg
BEGIN;
DROP TABLE voyager.ranges;
COMMIT;
