-- Verify voyager:table_range_batches on pg
SELECT range_id, first_article, next_article, headers, stored_at
  FROM voyager.range_batches WHERE FALSE;
