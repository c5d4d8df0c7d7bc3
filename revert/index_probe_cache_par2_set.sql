-- Revert voyager:index_probe_cache_par2_set from pg
BEGIN;
DROP INDEX voyager.probe_cache_par2_set_idx;
COMMIT;
