-- Deploy voyager:index_releases_poster_posted to pg
BEGIN;
-- A poster's releases by posting time: the name pass, the inner merge and the
-- sidecar fold look for a release's neighbours of the same poster within hours.
CREATE INDEX releases_poster_posted_idx ON voyager.releases (poster_id, posted_at);
COMMIT;
