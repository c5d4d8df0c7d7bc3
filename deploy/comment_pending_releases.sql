-- Deploy voyager:comment_pending_releases to pg
BEGIN;
COMMENT ON TABLE voyager.pending_releases
    IS 'Uploads whose subjects give no readable name: held here, with no catalog row and no chunk, until phase 2 names them';
COMMIT;
