-- Revert voyager:function_find_par2_merges from pg
BEGIN;
DROP FUNCTION voyager.find_par2_merges(timestamptz, timestamptz);
COMMIT;
