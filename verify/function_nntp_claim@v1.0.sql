-- Verify voyager:function_nntp_claim on pg
SELECT 'voyager.nntp_claim(text, text, integer, integer, integer)'::regprocedure;
