-- Verify voyager:table_release_chunks on pg
SELECT release_id, month, created_at, chunk
  FROM voyager.release_chunks WHERE FALSE;
