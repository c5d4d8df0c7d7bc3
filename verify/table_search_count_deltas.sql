-- Verify voyager:table_search_count_deltas on pg
SELECT key, delta
  FROM voyager.search_count_deltas WHERE FALSE;
