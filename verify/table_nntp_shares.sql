-- Verify voyager:table_nntp_shares on pg
SELECT role, min_connections, max_connections, priority
  FROM voyager.nntp_shares WHERE FALSE;
