-- Verify voyager:function_rebuild_search_counts on pg
SELECT 'voyager.rebuild_search_counts()'::regprocedure;
