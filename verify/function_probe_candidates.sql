-- Verify voyager:function_probe_candidates on pg
SELECT claimed_by, claimed_until, probed_at FROM voyager.probe_candidates WHERE FALSE;
SELECT has_function_privilege('voyager.claim_probe_candidates(text, integer, interval)', 'execute');
SELECT has_function_privilege('voyager.probe_candidate_done(text, bigint, text)', 'execute');
