-- Verify voyager:trigger_pending_probe_candidates on pg
SELECT 'voyager.pending_probe_candidates()'::regprocedure;
SELECT 1/count(*) FROM pg_trigger WHERE tgname IN ('pending_probe_candidates_insert', 'pending_probe_candidates_update')
 HAVING count(*) = 2;
