-- Verify voyager:function_find_inner_merges on pg
SELECT 'voyager.find_inner_merges(timestamptz, timestamptz)'::regprocedure;
