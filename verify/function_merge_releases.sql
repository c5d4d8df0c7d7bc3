-- Verify voyager:function_merge_releases on pg
SELECT 'voyager.merge_releases(bigint[], bigint[], text[], bytea[])'::regprocedure,
       'voyager.unmerge_releases(bigint[])'::regprocedure;
