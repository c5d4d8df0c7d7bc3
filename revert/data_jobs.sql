-- Revert voyager:data_jobs from pg
BEGIN;
DELETE FROM voyager.jobs WHERE name IN ('chunk_partitions', 'search_counts', 'settle', 'tail_plan');
COMMIT;
