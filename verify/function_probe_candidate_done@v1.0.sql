-- Verify voyager:function_probe_candidate_done on pg
SELECT 'voyager.probe_candidate_done(text, bigint, text)'::regprocedure;
