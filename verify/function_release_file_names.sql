-- Verify voyager:function_release_file_names on pg
SELECT 'voyager.release_file_names(bigint, timestamptz)'::regprocedure;
