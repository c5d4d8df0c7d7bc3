-- Revert voyager:function_set_aside_ranges from pg
BEGIN;
DROP FUNCTION voyager.set_aside_ranges(bigint, bigint);
COMMIT;
