-- Verify voyager:function_compact_catalog_changes on pg
SELECT 'voyager.compact_catalog_changes()'::regprocedure;
