-- Verify voyager:function_probe_texts on pg
SELECT 'voyager.probe_texts(jsonb)'::regprocedure;
