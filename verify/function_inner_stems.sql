-- Verify voyager:function_inner_stems on pg
SELECT 'voyager.inner_stems(bigint)'::regprocedure;
