-- Verify voyager:function_claim_due_job on pg
SELECT 'voyager.claim_due_job(text, text[], text[])'::regprocedure;
