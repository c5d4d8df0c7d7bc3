-- Verify voyager:function_check_catalog on pg
SELECT 'voyager.check_catalog()'::regprocedure;
