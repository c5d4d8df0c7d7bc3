-- Revert voyager:function_claim_due_job from pg
BEGIN;
DROP FUNCTION voyager.claim_due_job(text, text[], text[]);
COMMIT;
