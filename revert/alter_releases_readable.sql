-- Revert voyager:alter_releases_readable from pg
BEGIN;
ALTER TABLE voyager.releases DROP COLUMN readable;
COMMIT;
