-- Revert voyager:function_find_name_merges from pg
BEGIN;
DROP FUNCTION voyager.find_name_merges(timestamptz, timestamptz);
COMMIT;
