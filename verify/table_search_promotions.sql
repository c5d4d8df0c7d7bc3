-- Verify voyager:table_search_promotions on pg
SELECT key, asked_at
  FROM voyager.search_promotions WHERE FALSE;
