-- Verify voyager:function_fold_search_counts on pg
SELECT 'voyager.fold_search_counts(integer)'::regprocedure;
