-- Revert voyager:function_claim_named_pending from pg
BEGIN;
DROP FUNCTION voyager.claim_named_pending(text, integer, interval);
COMMIT;
