-- Revert voyager:function_search_tracking_lock from pg
BEGIN;
DROP FUNCTION voyager.search_tracking_lock(boolean);
COMMIT;
