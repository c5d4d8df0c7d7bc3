-- Verify voyager:function_lease_recovery on pg
SELECT 'voyager.lease_recovery(text)'::regprocedure;
