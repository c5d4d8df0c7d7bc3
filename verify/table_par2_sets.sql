-- Verify voyager:table_par2_sets on pg
SELECT set_id, creator, name, files, message_id, found_at FROM voyager.par2_sets WHERE FALSE;
