-- Revert voyager:alter_releases_merged_into from pg
BEGIN;
ALTER TABLE voyager.releases DROP COLUMN merged_into;
COMMIT;
