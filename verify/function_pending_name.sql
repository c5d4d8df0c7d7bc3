-- Verify voyager:function_pending_name on pg
SELECT 'voyager.pending_name(jsonb)'::regprocedure;
