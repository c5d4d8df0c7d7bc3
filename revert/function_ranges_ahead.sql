-- Revert voyager:function_ranges_ahead from pg
BEGIN;
DROP FUNCTION voyager.ranges_ahead(uuid, integer);
COMMIT;
