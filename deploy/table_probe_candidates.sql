-- Deploy voyager:table_probe_candidates to pg
BEGIN;
CREATE TABLE voyager.probe_candidates (
    release_id  bigint NOT NULL,
    kind        text NOT NULL CHECK (kind IN ('archive', 'par2', 'lone', '7z-tail')),
    message_id  text NOT NULL,
    file_index  integer NOT NULL,
    claimed_by    text,
    claimed_until timestamptz,
    probed_at     timestamptz,
    PRIMARY KEY (release_id, kind)
);
COMMENT ON TABLE voyager.probe_candidates IS 'The articles phase 2 reads per release; claimable once the release is finished';
-- Phase 2 reads a few first articles per release; its workers claim the probe
-- candidates of finished releases (settled_at set: a provisional release may
-- still change its files) in a SKIP LOCKED queue with a lease column, so a
-- dead prober's claims come back after the lease.
CREATE INDEX probe_candidates_open_idx ON voyager.probe_candidates (release_id) WHERE probed_at IS NULL;
COMMIT;
