-- Verify voyager:function_store_recovered on pg
SELECT 'voyager.store_recovered(uuid, bigint, voyager.release_in[], voyager.pending_in[], text[], jsonb)'::regprocedure;
