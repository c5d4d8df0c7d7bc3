-- Verify voyager:function_lease_waiting on pg
SELECT 'voyager.lease_waiting(uuid)'::regprocedure;
