-- Verify voyager:index_releases_small_settled on pg
SELECT 'voyager.releases_small_settled_idx'::regclass;
