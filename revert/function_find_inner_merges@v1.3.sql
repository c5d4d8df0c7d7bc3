-- Revert voyager:function_find_inner_merges from pg
BEGIN;
DROP FUNCTION voyager.find_inner_merges(timestamptz, timestamptz);
COMMIT;
