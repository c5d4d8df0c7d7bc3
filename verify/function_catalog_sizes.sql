-- Verify voyager:function_catalog_sizes on pg
SELECT 'voyager.catalog_sizes()'::regprocedure;
