-- Verify voyager:function_find_name_merges on pg
SELECT 'voyager.find_name_merges(timestamptz, timestamptz)'::regprocedure;
