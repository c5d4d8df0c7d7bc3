-- Verify voyager:table_par2_files on pg
SELECT set_id, file_id, name, size, md5_16k, md5 FROM voyager.par2_files WHERE FALSE;
