-- Verify voyager:function_chunk_partitions on pg
SELECT has_function_privilege('voyager.chunk_partition(date)', 'execute');
SELECT has_function_privilege('voyager.maintain_chunk_partitions(integer)', 'execute');
