-- Verify voyager:alter_releases_readable on pg
SELECT readable FROM voyager.releases WHERE false;
