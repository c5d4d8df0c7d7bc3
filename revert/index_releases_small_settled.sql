-- Revert voyager:index_releases_small_settled from pg
BEGIN;
DROP INDEX voyager.releases_small_settled_idx;
COMMIT;
