-- Deploy voyager:index_releases_small_settled to pg
BEGIN;
-- Small releases by when they settled: the sidecar fold's candidates (at most
-- 3 files under 1 MB) found by the slice they settled in.
CREATE INDEX releases_small_settled_idx ON voyager.releases (settled_at) WHERE files <= 3 AND bytes < 1048576;
COMMIT;
