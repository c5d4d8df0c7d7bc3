-- Verify voyager:function_find_par2_merges on pg
SELECT 'voyager.find_par2_merges(timestamptz, timestamptz)'::regprocedure;
