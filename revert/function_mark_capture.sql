-- Revert voyager:function_mark_capture from pg
BEGIN;
DROP FUNCTION voyager.mark_capture(timestamp with time zone, timestamp with time zone, integer, text);
COMMIT;
