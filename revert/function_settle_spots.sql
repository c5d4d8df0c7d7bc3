-- Revert voyager:function_settle_spots from pg
BEGIN;
DROP FUNCTION voyager.settle_spots(timestamptz);
COMMIT;
