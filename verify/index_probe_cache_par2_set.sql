-- Verify voyager:index_probe_cache_par2_set on pg
SELECT 'voyager.probe_cache_par2_set_idx'::regclass;
