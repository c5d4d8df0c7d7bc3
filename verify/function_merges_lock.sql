-- Verify voyager:function_merges_lock on pg
SELECT 'voyager.merges_lock(boolean)'::regprocedure;
