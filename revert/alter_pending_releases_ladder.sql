-- Revert voyager:alter_pending_releases_ladder from pg
BEGIN;
DROP INDEX voyager.pending_releases_named_idx;
ALTER TABLE voyager.pending_releases
    DROP CONSTRAINT pending_releases_status_check,
    DROP CONSTRAINT pending_releases_named_check,
    DROP CONSTRAINT pending_releases_claim_check,
    DROP COLUMN tries, DROP COLUMN named, DROP COLUMN name_source, DROP COLUMN release_id,
    DROP COLUMN decided_at, DROP COLUMN claim, DROP COLUMN taken_by, DROP COLUMN expires_at;
COMMENT ON COLUMN voyager.pending_releases.status IS NULL;
COMMIT;
