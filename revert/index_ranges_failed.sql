-- Revert voyager:index_ranges_failed from pg
BEGIN;
DROP INDEX voyager.ranges_failed_idx;
COMMIT;
