-- Verify voyager:function_store_named on pg
SELECT 'voyager.store_named(uuid, voyager.release_in)'::regprocedure;
