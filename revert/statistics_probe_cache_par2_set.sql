-- Revert voyager:statistics_probe_cache_par2_set from pg
BEGIN;
DROP STATISTICS voyager.probe_cache_par2_set_stats;
COMMIT;
