-- Verify voyager:index_releases_poster_posted on pg
SELECT 'voyager.releases_poster_posted_idx'::regclass;
