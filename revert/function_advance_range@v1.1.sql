-- Revert voyager:function_advance_range from pg
BEGIN;
DROP FUNCTION voyager.advance_range(uuid, bigint, bigint, bigint, bigint);
COMMIT;
