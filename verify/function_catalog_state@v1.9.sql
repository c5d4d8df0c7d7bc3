-- Verify voyager:function_catalog_state on pg
SELECT 'voyager.catalog_state()'::regprocedure;
