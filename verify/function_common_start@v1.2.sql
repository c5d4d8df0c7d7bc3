-- Verify voyager:function_common_start on pg
SELECT 'voyager.common_start(bytea, bigint)'::regprocedure;
