-- Verify voyager:view_status_phase2 on pg
SELECT provisional_releases, settle_due, pending_waiting, pending_oldest, pending_releases,
       probe_candidates_ready, probe_candidates_waiting
  FROM voyager.status_phase2 WHERE FALSE;
