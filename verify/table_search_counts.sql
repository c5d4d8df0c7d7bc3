-- Verify voyager:table_search_counts on pg
SELECT key, releases
  FROM voyager.search_counts WHERE FALSE;
