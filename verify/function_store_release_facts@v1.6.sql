-- Verify voyager:function_store_release_facts on pg
SELECT 'voyager.store_release_facts(jsonb)'::regprocedure;
