-- Deploy voyager:alter_releases_merged_into to pg
BEGIN;
-- A release merged into another keeps its row and its chunk (the survivor's
-- NZB reads them) and points at its survivor; never a chain (a survivor merged
-- later hands its members on).
ALTER TABLE voyager.releases ADD COLUMN merged_into bigint;
CREATE INDEX releases_merged_into_idx ON voyager.releases (merged_into) WHERE merged_into IS NOT NULL;
COMMENT ON COLUMN voyager.releases.merged_into IS
    'The survivor this release was merged into (row and chunk kept, hidden with verdict merged); null: a release of its own';
COMMIT;
