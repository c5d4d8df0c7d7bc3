-- Verify voyager:function_chunk_partition on pg
SELECT 'voyager.chunk_partition(date)'::regprocedure;
