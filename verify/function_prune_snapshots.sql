-- Verify voyager:function_prune_snapshots on pg
SELECT 'voyager.prune_snapshots()'::regprocedure;
