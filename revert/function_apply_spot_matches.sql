-- Revert voyager:function_apply_spot_matches from pg
BEGIN;
DROP FUNCTION voyager.apply_spot_matches(timestamptz);
COMMIT;
