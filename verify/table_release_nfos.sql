-- Verify voyager:table_release_nfos on pg
SELECT release_id, message_id, text, found_at FROM voyager.release_nfos WHERE FALSE;
