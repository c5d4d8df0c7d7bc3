-- Revert voyager:table_probe_candidates from pg
BEGIN;
DROP TABLE voyager.probe_candidates;
COMMIT;
