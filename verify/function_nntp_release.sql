-- Verify voyager:function_nntp_release on pg
SELECT 'voyager.nntp_release(text, text)'::regprocedure;
