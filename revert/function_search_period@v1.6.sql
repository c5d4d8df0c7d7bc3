-- Revert voyager:function_search_period from pg
BEGIN;
DROP FUNCTION voyager.search_period(text, date);
COMMIT;
