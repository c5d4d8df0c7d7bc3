-- Verify voyager:function_lease_of on pg
SELECT 'voyager.lease_of(uuid)'::regprocedure;
