-- Verify voyager:alter_releases_merged_into on pg
SELECT merged_into FROM voyager.releases WHERE false;
