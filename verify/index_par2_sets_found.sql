-- Verify voyager:index_par2_sets_found on pg
SELECT 'voyager.par2_sets_found_brin'::regclass;
