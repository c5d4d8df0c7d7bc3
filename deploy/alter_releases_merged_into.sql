-- Deploy voyager:alter_releases_merged_into to pg
BEGIN;
-- A release merged into another keeps its row and its chunk (the survivor's
-- NZB reads them) and points at its survivor; never a chain (a survivor merged
-- later hands its members on). Naming codes past the header pass's: 7 a par2
-- set, 8 an archive's inner name, 9 an NFO title, 10 a yEnc name.
ALTER TABLE voyager.releases ADD COLUMN merged_into bigint;
CREATE INDEX releases_merged_into_idx ON voyager.releases (merged_into) WHERE merged_into IS NOT NULL;
COMMENT ON COLUMN voyager.releases.merged_into IS
    'The survivor this release was merged into (row and chunk kept, hidden with verdict merged); null: a release of its own';
COMMENT ON COLUMN voyager.releases.source IS
    'How it was named: 1 subject, 2 post, 3 stem, 4 spot, 5 nzb, 6 album, 7 par2 set, 8 archive, 9 nfo, 10 yenc';
COMMIT;
