-- Verify voyager:function_merge_releases on pg
SELECT 'voyager.merge_releases(bigint[], bigint[], text[], bytea[])'::regprocedure,
       'voyager.unmerge_releases(bigint[])'::regprocedure,
       'voyager.merge_record(bigint[], bigint[], text[], bytea[])'::regprocedure;
SELECT 1/count(*) FROM pg_proc WHERE oid = 'voyager.merge_releases(bigint[], bigint[], text[], bytea[])'::regprocedure
   AND prosrc LIKE '%WHERE r.id = ANY (ARRAY(SELECT i FROM unnest(p_survivor || p_merged) i%';
