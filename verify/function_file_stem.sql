-- Verify voyager:function_file_stem on pg
SELECT 'voyager.file_stem(text)'::regprocedure;
