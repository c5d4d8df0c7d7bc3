-- Verify voyager:index_ranges_failed on pg
SELECT 'voyager.ranges_failed_idx'::regclass;
