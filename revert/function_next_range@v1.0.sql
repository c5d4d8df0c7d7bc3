-- Revert voyager:function_next_range from pg
BEGIN;
DROP FUNCTION voyager.next_range(uuid);
COMMIT;
