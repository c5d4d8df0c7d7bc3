-- Verify voyager:function_merge_releases on pg
SELECT 'voyager.merge_releases(bigint[], bigint[], text[], bytea[])'::regprocedure,
       'voyager.unmerge_releases(bigint[])'::regprocedure,
       'voyager.merge_record(bigint[], bigint[], text[], bytea[])'::regprocedure;
