-- Revert voyager:alter_probe_candidates_claims from pg
BEGIN;
DELETE FROM voyager.probe_candidates WHERE release_id IS NULL;
DELETE FROM voyager.probe_candidates WHERE kind IN ('nfo', 'media');
DROP INDEX voyager.probe_candidates_message_idx;
DROP INDEX voyager.probe_candidates_open_idx;
DROP INDEX voyager.probe_candidates_pending_kind_idx;
DROP INDEX voyager.probe_candidates_release_kind_idx;
ALTER TABLE voyager.probe_candidates DROP CONSTRAINT probe_candidates_owner_check,
    DROP COLUMN rank, DROP COLUMN attempts, DROP COLUMN claim, DROP COLUMN pending_key;
ALTER TABLE voyager.probe_candidates ALTER COLUMN release_id SET NOT NULL;
ALTER TABLE voyager.probe_candidates ADD PRIMARY KEY (release_id, kind);
ALTER TABLE voyager.probe_candidates DROP CONSTRAINT probe_candidates_kind_check;
ALTER TABLE voyager.probe_candidates ADD CONSTRAINT probe_candidates_kind_check
    CHECK (kind IN ('archive', 'par2', 'lone', '7z-tail'));
ALTER TABLE voyager.probe_candidates RENAME COLUMN expires_at TO claimed_until;
CREATE INDEX probe_candidates_open_idx ON voyager.probe_candidates (release_id) WHERE probed_at IS NULL;
COMMIT;
