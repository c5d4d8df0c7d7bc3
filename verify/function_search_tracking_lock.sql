-- Verify voyager:function_search_tracking_lock on pg
SELECT 'voyager.search_tracking_lock(boolean)'::regprocedure;
