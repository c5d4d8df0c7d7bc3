-- Verify voyager:function_lease_group on pg
SELECT 'voyager.lease_group(text, text, integer, integer, boolean)'::regprocedure;
