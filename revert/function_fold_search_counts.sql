-- Revert voyager:function_fold_search_counts from pg
BEGIN;
DROP FUNCTION voyager.fold_search_counts(integer);
COMMIT;
