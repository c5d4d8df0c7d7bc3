-- Revert voyager:comment_pending_releases from pg
BEGIN;
COMMENT ON TABLE voyager.pending_releases IS 'Releases without a usable name (decision f): no catalog row, no chunk, until phase 2 names them';
COMMIT;
