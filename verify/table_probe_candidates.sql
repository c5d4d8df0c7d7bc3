-- Verify voyager:table_probe_candidates on pg
SELECT release_id, kind, message_id, file_index, claimed_by, claimed_until, probed_at
  FROM voyager.probe_candidates WHERE FALSE;
