-- Revert voyager:function_fold_common_words from pg
BEGIN;
DROP FUNCTION voyager.fold_common_words();
COMMIT;
