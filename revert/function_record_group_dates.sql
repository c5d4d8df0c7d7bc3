-- Revert voyager:function_record_group_dates from pg
BEGIN;
DROP FUNCTION voyager.record_group_dates(text, jsonb);
COMMIT;
