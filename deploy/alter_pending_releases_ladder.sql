-- Deploy voyager:alter_pending_releases_ladder to pg
BEGIN;
-- The pending ladder: a pending release climbs from waiting to named, then
-- to the catalog through the namer, or ends discarded or exhausted; never
-- shown until it is in the catalog. `tries` counts the ladder's looks that
-- found no name; the name decided, where it came from (a releases.source
-- code) and the catalog release it became are kept with it; a namer's claim
-- is a token and a lease, so a dead namer's releases come back.
ALTER TABLE voyager.pending_releases
    ADD COLUMN tries       smallint NOT NULL DEFAULT 0,
    ADD COLUMN named       text,
    ADD COLUMN name_source smallint,
    ADD COLUMN release_id  bigint,
    ADD COLUMN decided_at  timestamptz,
    ADD COLUMN claim       uuid,
    ADD COLUMN taken_by    text,
    ADD COLUMN expires_at  timestamptz,
    ADD CONSTRAINT pending_releases_status_check CHECK (status BETWEEN 0 AND 5),
    ADD CONSTRAINT pending_releases_named_check CHECK (status NOT IN (1, 4, 5) OR named IS NOT NULL),
    ADD CONSTRAINT pending_releases_claim_check CHECK ((status = 5) = (claim IS NOT NULL));
COMMENT ON COLUMN voyager.pending_releases.status IS
    '0 waiting, 1 named and in the catalog (release_id), 2 discarded (its tries found no facts at all), '
    '3 exhausted (facts, but no name in them), 4 named awaiting the move, 5 taken by a namer (claim, expires_at)';
COMMENT ON COLUMN voyager.pending_releases.tries IS 'The ladder''s looks at its probes that found no name';
COMMENT ON COLUMN voyager.pending_releases.name_source IS 'How it was named, as releases.source says it';
-- the namer's queue: named releases awaiting the move, and taken ones whose lease may run out
CREATE INDEX pending_releases_named_idx ON voyager.pending_releases (decided_at) WHERE status IN (4, 5);
COMMIT;
