-- Verify voyager:table_nodes on pg
SELECT name, first_seen_at, seen_at, info
  FROM voyager.nodes WHERE FALSE;
