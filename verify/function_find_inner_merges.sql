-- Verify voyager:function_find_inner_merges on pg
SELECT 'voyager.find_inner_merges(timestamptz, timestamptz)'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.find_inner_merges(timestamptz, timestamptz)'::regprocedure
   AND prosrc LIKE '%r.id = ANY (ARRAY(SELECT t.id FROM touched t))%';
