-- Revert voyager:function_check_search_counts from pg
BEGIN;
DROP FUNCTION voyager.check_search_counts();
COMMIT;
