-- Deploy voyager:alter_probe_candidates_claims to pg
BEGIN;
-- The probe queue grows into phase 2's: the lease column named as the other
-- claim tables name it, the nfo and media kinds, a claim token (a result for a
-- claim taken over changes nothing), attempts (an article that kills its prober
-- or never answers is given up), the claim order as a column its partial index
-- serves, and pending releases' targets in the same queue (pending_key: the
-- pending release's key; release_id: a catalog release's; exactly one).
ALTER TABLE voyager.probe_candidates RENAME COLUMN claimed_until TO expires_at;
ALTER TABLE voyager.probe_candidates DROP CONSTRAINT probe_candidates_kind_check;
ALTER TABLE voyager.probe_candidates ADD CONSTRAINT probe_candidates_kind_check
    CHECK (kind IN ('lone', 'archive', 'par2', '7z-tail', 'nfo', 'media'));
ALTER TABLE voyager.probe_candidates DROP CONSTRAINT probe_candidates_pkey;
ALTER TABLE voyager.probe_candidates ALTER COLUMN release_id DROP NOT NULL;
ALTER TABLE voyager.probe_candidates
    ADD COLUMN pending_key bytea,
    ADD COLUMN claim uuid,
    ADD COLUMN attempts smallint NOT NULL DEFAULT 0,
    -- the claim order: random names (pending releases) before readable ones, then by
    -- kind: the lone file, the first archive volume, the smallest par2, a 7z set's
    -- tail, the nfo, the main file's start
    ADD COLUMN rank smallint GENERATED ALWAYS AS (
        CASE WHEN pending_key IS NULL THEN 10 ELSE 0 END
        + CASE kind WHEN 'lone' THEN 0 WHEN 'archive' THEN 1 WHEN 'par2' THEN 2 WHEN '7z-tail' THEN 3
                    WHEN 'nfo' THEN 4 ELSE 5 END) STORED,
    ADD CONSTRAINT probe_candidates_owner_check CHECK ((release_id IS NULL) <> (pending_key IS NULL));
-- store_batch's ON CONFLICT (release_id, kind) infers this index
CREATE UNIQUE INDEX probe_candidates_release_kind_idx ON voyager.probe_candidates (release_id, kind);
CREATE UNIQUE INDEX probe_candidates_pending_kind_idx ON voyager.probe_candidates (pending_key, kind)
    WHERE pending_key IS NOT NULL;
DROP INDEX voyager.probe_candidates_open_idx;
CREATE INDEX probe_candidates_open_idx ON voyager.probe_candidates (rank, release_id, pending_key)
    WHERE probed_at IS NULL;
CREATE INDEX probe_candidates_message_idx ON voyager.probe_candidates (message_id);
COMMIT;
