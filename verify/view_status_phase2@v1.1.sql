-- Verify voyager:view_status_phase2 on pg
SELECT provisional_releases, settle_due, pending_waiting, pending_oldest, pending_releases,
       probe_candidates_ready, probe_candidates_waiting, probe_backlog, probes_stuck, probes_last_hour,
       probes_per_second, probes_dead, probes_failed
  FROM voyager.status_phase2 WHERE FALSE;
