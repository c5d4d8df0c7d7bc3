-- Revert voyager:table_range_batches from pg
BEGIN;
DROP TABLE voyager.range_batches;
COMMIT;
