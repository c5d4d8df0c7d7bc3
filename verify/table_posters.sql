-- Verify voyager:table_posters on pg
SELECT id, poster
  FROM voyager.posters WHERE FALSE;
