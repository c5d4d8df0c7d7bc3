-- Verify voyager:alter_release_passwords_source on pg
SELECT release_id, status, password, source FROM voyager.release_passwords WHERE FALSE;
