-- Deploy voyager:comment_releases_source to pg
BEGIN;
COMMENT ON COLUMN voyager.releases.source IS
    'How the release got its name: 1 subject, 2 post, 3 stem, 4 spot, 5 nzb, 6 album; moved from pending: '
    '7 a par2 set''s file, 8 an archive''s entry, 9 an NFO''s title, 10 a yEnc name';
COMMIT;
