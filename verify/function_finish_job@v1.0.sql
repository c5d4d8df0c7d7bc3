-- Verify voyager:function_finish_job on pg
SELECT 'voyager.finish_job(text, uuid, jsonb, text)'::regprocedure;
