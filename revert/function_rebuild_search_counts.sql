-- Revert voyager:function_rebuild_search_counts from pg
BEGIN;
DROP FUNCTION voyager.rebuild_search_counts();
COMMIT;
