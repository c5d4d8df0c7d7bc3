-- Revert voyager:comment_releases_source from pg
BEGIN;
COMMENT ON COLUMN voyager.releases.source IS NULL;
COMMIT;
