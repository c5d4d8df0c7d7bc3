-- Revert voyager:table_spot_matches from pg
BEGIN;
DROP TABLE voyager.spot_matches;
DROP INDEX voyager.pending_releases_identity_idx;
DROP TABLE voyager.spot_nzbs;
COMMIT;
