-- Verify voyager:function_estimated_rows on pg
SELECT 'voyager.estimated_rows(regclass, bigint)'::regprocedure;
