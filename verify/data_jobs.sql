-- Verify voyager:data_jobs on pg
SELECT 1/(count(*) = 4)::int FROM voyager.jobs WHERE name IN ('chunk_partitions', 'search_counts', 'settle', 'tail_plan');
