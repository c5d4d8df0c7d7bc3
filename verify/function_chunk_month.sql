-- Verify voyager:function_chunk_month on pg
SELECT 'voyager.chunk_month(timestamp with time zone)'::regprocedure;
