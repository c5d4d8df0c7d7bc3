-- Revert voyager:function_date_samples_due from pg
BEGIN;
DROP FUNCTION voyager.date_samples_due(integer);
COMMIT;
