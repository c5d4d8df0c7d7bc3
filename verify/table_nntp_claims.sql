-- Verify voyager:table_nntp_claims on pg
SELECT node, role, connections, want, claimed_at, expires_at
  FROM voyager.nntp_claims WHERE FALSE;
