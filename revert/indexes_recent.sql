-- Revert voyager:indexes_recent from pg
BEGIN;
DROP INDEX voyager.releases_first_seen_brin;
DROP INDEX voyager.range_batches_stored_idx;
COMMIT;
