-- Verify voyager:function_claim_probe_candidates on pg
SELECT 'voyager.claim_probe_candidates(text, integer, interval, integer)'::regprocedure;
