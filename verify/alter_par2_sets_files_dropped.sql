-- Verify voyager:alter_par2_sets_files_dropped on pg
SELECT files_dropped_at FROM voyager.par2_sets WHERE false;
