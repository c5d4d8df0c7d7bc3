-- Verify voyager:alter_probe_candidates_claims on pg
SELECT release_id, pending_key, kind, message_id, file_index, claimed_by, claim, expires_at, attempts, rank, probed_at
  FROM voyager.probe_candidates WHERE FALSE;
