-- Verify voyager:function_nzb on pg
SELECT 'voyager.nzb(bigint)'::regprocedure;
