-- Verify voyager:indexes_recent on pg
SELECT 1 / (count(*) = 2)::integer FROM pg_indexes
 WHERE schemaname = 'voyager' AND indexname IN ('range_batches_stored_idx', 'releases_first_seen_brin');
