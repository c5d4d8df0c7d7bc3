-- Verify voyager:function_maintain_chunk_partitions on pg
SELECT 'voyager.maintain_chunk_partitions(integer)'::regprocedure;
