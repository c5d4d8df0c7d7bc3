-- Verify voyager:function_store_probes on pg
SELECT 'voyager.store_probes(text, jsonb)'::regprocedure;
