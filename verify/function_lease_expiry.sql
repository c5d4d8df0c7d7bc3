-- Verify voyager:function_lease_expiry on pg
SELECT 'voyager.lease_expiry()'::regprocedure;
