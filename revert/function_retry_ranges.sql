-- Revert voyager:function_retry_ranges from pg
BEGIN;
DROP FUNCTION voyager.retry_ranges(text);
COMMIT;
