-- Verify voyager:function_fold_common_words on pg
SELECT 'voyager.fold_common_words()'::regprocedure;
