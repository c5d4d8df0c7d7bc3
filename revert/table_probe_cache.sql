-- Revert voyager:table_probe_cache from pg
BEGIN;
DROP TABLE voyager.probe_cache;
COMMIT;
