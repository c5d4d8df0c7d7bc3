-- Verify voyager:function_judge_releases on pg
SELECT 'voyager.judge_releases(bigint[], timestamptz)'::regprocedure;
