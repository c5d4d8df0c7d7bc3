-- Verify voyager:table_release_grabs on pg
SELECT release_id, grabs, last_grab_at
  FROM voyager.release_grabs WHERE FALSE;
