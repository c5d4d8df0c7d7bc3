-- Revert voyager:index_releases_poster_posted from pg
BEGIN;
DROP INDEX voyager.releases_poster_posted_idx;
COMMIT;
