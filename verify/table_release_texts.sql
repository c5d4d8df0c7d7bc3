-- Verify voyager:table_release_texts on pg
SELECT release_id, posted_at, kind, text
  FROM voyager.release_texts WHERE FALSE;
