-- Revert voyager:function_estimate_range_dates from pg
BEGIN;
DROP FUNCTION voyager.estimate_range_dates(text);
COMMIT;
