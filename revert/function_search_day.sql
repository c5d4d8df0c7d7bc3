-- Revert voyager:function_search_day from pg
BEGIN;
DROP FUNCTION voyager.search_day(timestamp with time zone);
COMMIT;
