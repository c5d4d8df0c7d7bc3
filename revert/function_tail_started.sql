-- Revert voyager:function_tail_started from pg
BEGIN;
DROP FUNCTION voyager.tail_started(integer);
COMMIT;
