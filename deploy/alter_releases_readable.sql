-- Deploy voyager:alter_releases_readable to pg
BEGIN;
-- Whether the release's name is one someone could search for (the window's
-- judgement: not a hash or a random token); the rows before it were all named so.
ALTER TABLE voyager.releases ADD COLUMN readable boolean NOT NULL DEFAULT true;
COMMENT ON COLUMN voyager.releases.readable IS 'The name is readable (not a hash or a random token), as the window judged it';
COMMIT;
