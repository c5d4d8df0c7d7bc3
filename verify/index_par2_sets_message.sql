-- Verify voyager:index_par2_sets_message on pg
SELECT 'voyager.par2_sets_message_idx'::regclass;
