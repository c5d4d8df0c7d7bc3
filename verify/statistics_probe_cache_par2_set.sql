-- Verify voyager:statistics_probe_cache_par2_set on pg
SELECT 1 / count(*) FROM pg_statistic_ext WHERE stxname = 'probe_cache_par2_set_stats';
