-- Verify voyager:table_search_totals on pg
SELECT query_hash, state, total, counted_at
  FROM voyager.search_totals WHERE FALSE;
