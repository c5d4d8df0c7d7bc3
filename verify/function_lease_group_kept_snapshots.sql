-- Verify voyager:function_lease_group_kept_snapshots on pg
SELECT 'voyager.lease_group(text, text, integer, integer, boolean)'::regprocedure;
