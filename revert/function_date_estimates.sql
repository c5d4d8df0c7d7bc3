-- Revert voyager:function_date_estimates from pg
BEGIN;
DROP FUNCTION voyager.mark_capture(timestamptz, timestamptz, integer, text);
DROP FUNCTION voyager.estimate_range_dates(text);
DROP FUNCTION voyager.record_group_dates(text, jsonb);
COMMIT;
