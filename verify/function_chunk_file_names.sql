-- Verify voyager:function_chunk_file_names on pg
SELECT 'voyager.chunk_file_names(bytea)'::regprocedure;
