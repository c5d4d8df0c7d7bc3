-- Revert voyager:function_recovery_matches from pg
BEGIN;
DROP FUNCTION voyager.recovery_matches(text, text, text, text, text[]);
COMMIT;
