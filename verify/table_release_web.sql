-- Verify voyager:table_release_web on pg
SELECT release_id, grabs, last_grab_at FROM voyager.release_grabs WHERE FALSE;
SELECT release_id, status, password, found_at FROM voyager.release_passwords WHERE FALSE;
SELECT release_id, hidden, verdict, judged_at FROM voyager.release_judgements WHERE FALSE;
SELECT kind, value, release_id FROM voyager.release_media_ids WHERE FALSE;
