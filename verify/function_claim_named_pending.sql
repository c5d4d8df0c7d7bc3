-- Verify voyager:function_claim_named_pending on pg
SELECT 'voyager.claim_named_pending(text, integer, interval)'::regprocedure;
