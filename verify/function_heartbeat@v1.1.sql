-- Verify voyager:function_heartbeat on pg
SELECT 'voyager.heartbeat(uuid)'::regprocedure;
