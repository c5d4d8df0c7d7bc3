-- Verify voyager:table_release_passwords on pg
SELECT release_id, status, password, found_at
  FROM voyager.release_passwords WHERE FALSE;
