-- Verify voyager:table_probe_candidates on pg
-- (its lease column is named by alter_probe_candidates_claims's verify: claimed_until, then expires_at)
SELECT release_id, kind, message_id, file_index, claimed_by, probed_at
  FROM voyager.probe_candidates WHERE FALSE;
