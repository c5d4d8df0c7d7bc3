-- Verify voyager:function_lease_rules on pg
SELECT 'voyager.lease_rules(uuid)'::regprocedure;
